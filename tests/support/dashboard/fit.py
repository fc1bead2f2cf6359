"""The cut-off text check every browser fit check shares (``fits`` of tests/browser/test_table_companion.py and of
:mod:`tests.support.dashboard.wagons_browser`): a text whose box is too narrow for it and clips it ("Cha..." for
Change at 1366 px, a sidebar group title, "W..." for Wagon in the phone picker, an axis title cut short)."""

from __future__ import annotations

CUT_TEXT = """() => {
  // a visible element that holds text itself (a button's label, a caption, a title, a tab) and is narrower than that
  // text while it hides the rest (an ellipsis, or overflow hidden or clipped); an SVG text (a chart's axis title or
  // label) that the chart shortened with an ellipsis
  const out = [];
  const say = (e, why) => out.push((e.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 60) + ' (' + why + ')');
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) continue;  // not shown, or only to a screen reader ("Skip to main content")
    const s = getComputedStyle(e);
    if (s.visibility === 'hidden' || s.display === 'none') continue;
    if (e instanceof SVGElement) {
      if (e.tagName.toLowerCase() === 'text' && /(\\u2026|\\.\\.\\.)$/.test((e.textContent || '').trim()))
        say(e, 'shortened');
      continue;
    }
    if (!(e.textContent || '').trim()) continue;
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const ellipsis = s.textOverflow === 'ellipsis';
    const hides = s.overflowX === 'hidden' || s.overflowX === 'clip';
    if ((ellipsis || (own && hides)) && e.scrollWidth > e.clientWidth + 1)
      say(e, e.scrollWidth + ' > ' + e.clientWidth + ' px');
  }
  return out;
}"""


def cut_text(page) -> list[str]:
    """Each text the page shows cut off (:data:`CUT_TEXT`): its first words and why; empty when every text fits."""
    return page.evaluate(CUT_TEXT)
