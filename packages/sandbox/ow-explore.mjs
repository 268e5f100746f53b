import sh from 'mvdan-sh';
const t0 = performance.now();
const { syntax } = sh;
const p = syntax.NewParser();
const src = process.argv[2];
const f = p.Parse(src, 'cmd');
syntax.DebugPrint(f);
console.log();
console.log('ms', performance.now() - t0);
