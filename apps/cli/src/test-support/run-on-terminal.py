"""Runs a command on a new pseudo-terminal, as a person at a terminal would (forged approval cards, architecture §3.9).

argv: the answer to type once the prompt is shown, the prompt to wait for (empty: answer nothing),
then the command. The terminal is 80 columns by 50 rows.
Everything the command wrote to the terminal goes to stdout as raw bytes; the exit status is the
command's. The command's stdin, stdout, stderr and controlling terminal (/dev/tty) are the
pseudo-terminal, so `isTTY` is true and the answer arrives through the terminal's line discipline.
"""
import fcntl
import os
import pty
import select
import struct
import sys
import termios

answer, prompt, command = sys.argv[1].encode(), sys.argv[2].encode(), sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 80, 0, 0))
    os.execvp(command[0], command)

seen = b""
answered = False
while True:
    ready, _, _ = select.select([fd], [], [], 60)
    if not ready:
        os.kill(pid, 9)
        sys.stderr.write("no output for 60 s; killed\n")
        break
    try:
        chunk = os.read(fd, 65536)
    except OSError:  # EIO: the command closed the terminal (it exited)
        break
    if not chunk:
        break
    seen += chunk
    if not answered and prompt and prompt in seen:
        os.write(fd, answer + b"\r")
        answered = True
sys.stdout.buffer.write(seen)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status) & 0xFF)
