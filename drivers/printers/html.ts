/**
 * A PrintDocument as a self-contained HTML page: the paper's SVG inline (so its lines are real,
 * selectable text a screen reader can read), at the paper's width, on a grey desk on screen and
 * alone when printed, with a @page size that makes a browser or Electron print it on the receipt
 * roll's width. No external resources: the cashier's window and the demo page work offline.
 */
import type { PaperColumns, PrintDocument } from './document.js';
import { escapeXml, planPaper, renderSvg } from './svg.js';

export interface HtmlOptions {
  /** The page's <title>; the document's own title when omitted. */
  readonly title?: string;
}

export function renderHtml(document: PrintDocument, columns: PaperColumns, options?: HtmlOptions): string {
  const plan = planPaper(document, columns);
  const width = plan.geometry.widthMm;
  // The page is exactly the strip of paper, so printing gives one page with no blank tail.
  const height = Math.ceil(plan.heightMm);
  const svg = renderSvg(document, columns)
    .trimEnd()
    .replace(/^<svg /, '<svg class="paper" ');
  return `<!DOCTYPE html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeXml(options?.title ?? document.title)}</title>
<style>
@page { size: ${width}mm ${height}mm; margin: 0 }
html, body { margin: 0; padding: 0 }
body { background: #d9d9d9 }
.paper { display: block; width: ${width}mm; height: auto; margin: 4mm auto; background: #fff; box-shadow: 0 1px 4px rgba(0, 0, 0, 0.35) }
@media print {
  body { background: none }
  .paper { margin: 0; box-shadow: none }
}
</style>
</head>
<body>
<main>
${svg}
</main>
</body>
</html>
`;
}
