// node picture.js IN.ansi OUT.png COLS ROWS: draws a terminal screen captured
// by tmux (capture-pane -e, with colours) in xterm.js on a canvas, in headless
// Chromium, and saves it as a PNG. scripts/pictures.sh runs it.
const fs = require('fs');
const { chromium } = require('playwright-core');
const [ansiFile, out, cols, rows] = process.argv.slice(2);
const mod = (p) => fs.readFileSync(require.resolve(p), 'utf8');
const ansi = fs.readFileSync(ansiFile, 'utf8').replace(/\n$/, '').split('\n').join('\r\n');
const html = `<!doctype html><html><head><style>${mod('@xterm/xterm/css/xterm.css')}
body { margin: 0; background: #1a1a1a; } #t { display: inline-block; padding: 12px; background: #1a1a1a; }</style>
<script>${mod('@xterm/xterm/lib/xterm.js')}</script><script>${mod('@xterm/addon-canvas/lib/addon-canvas.js')}</script></head>
<body><div id="t"></div><script>
const term = new Terminal({ cols: ${cols}, rows: ${rows}, fontFamily: 'DejaVu Sans Mono', fontSize: 22, customGlyphs: true,
  theme: { background: '#1a1a1a', foreground: '#e6e6e6' }, allowProposedApi: true });
term.open(document.getElementById('t'));
term.loadAddon(new CanvasAddon.CanvasAddon());
term.write(${JSON.stringify(ansi)}, () => { window.done = true; });
</script></body></html>`;
(async () => {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 5000, height: 3000 }, deviceScaleFactor: 1 });
  await page.setContent(html);
  await page.waitForFunction(() => window.done === true);
  await page.waitForTimeout(200);
  const box = await page.evaluate(() => {
    const r = document.querySelector('.xterm-screen').getBoundingClientRect();
    return { x: 0, y: 0, width: r.right + 12, height: r.bottom + 12 };
  });
  await page.screenshot({ path: out, clip: box });
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
