"""Every dashboard page opens without an exception (streamlit AppTest, no browser)."""

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.nav import PAGES, page, page_file
from tests.support.paths import ROOT

APP = str(ROOT / "dashboard" / "app.py")
ALL = [(info.name, info.title) for entries in PAGES.values() for info in entries]
TABS = [info.name for entries in PAGES.values() for info in entries if info.tabs]


def open_page(name: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception, at.exception
    if name != "home":
        at.switch_page(page_file(name)).run()
    return at


@pytest.mark.parametrize("name,title", ALL)
def test_page_opens(name, title):
    at = open_page(name)
    assert not at.exception, [e.value for e in at.exception]
    assert (title if name != "home" else "Ruleslinger") in [t.value for t in at.title]


@pytest.mark.parametrize("name", TABS)
def test_a_pages_first_tabs_are_those_its_record_lists(name):
    """The browser's fit test opens the tabs a page's ``PageInfo`` lists: they are the page's own, in order."""
    at = open_page(name)
    tabs = page(name).tabs
    assert [t.label for t in at.tabs][:len(tabs)] == list(tabs)


def test_home_lists_every_section():
    at = open_page("home")
    text = " ".join(m.value for m in at.markdown)
    for entries in PAGES.values():
        for info in entries:
            if info.name != "home":
                assert info.what in text


def test_oversized_and_deeply_nested_uploads_are_refused():
    at = open_page("outlaws")
    before = at.session_state["outlaws_position"]
    big = b'{"pad": "' + b"x" * 1_100_000 + b'"}'
    at.get("file_uploader")[0].upload("big.json", big, "application/json").run()
    assert any("too large" in e.value for e in at.error)
    deep = b"[" * 200 + b"]" * 200
    at.get("file_uploader")[0].upload("deep.json", deep, "application/json").run()
    assert any("nested deeper" in e.value for e in at.error)
    assert at.session_state["outlaws_position"] == before


def test_home_describes_every_section():
    from dashboard.nav import PAGES

    at = open_page("home")
    text = " ".join(m.value for m in at.markdown)
    assert all(what in text for section, entries in PAGES.items() if section != "Ruleslinger"
               for what in (info.what for info in entries))
