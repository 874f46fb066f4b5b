"""The browser table in a real headless Chromium (Playwright): two people in
two browser contexts (1280x800 and 390x844) play a whole game of every game
against each other and a bot, by clicks, while a spectator watches; a dropped
connection reconnects; a server killed mid-game and restarted resumes it.
Screenshots are kept in ``$PYCARDS_TEST_ARTIFACTS/web``.

Skipped without Playwright or a system Chromium, unless
``PYCARDS_REQUIRE_BROWSER=1`` (set by CI), where they must run.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _games import GAMES as REGISTERED

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from pycards.game import game_names
from pycards.games.notakers import NoTakersObservation, NoTakersSummary
from pycards.summary import named, story
from pycards.teach import prompt, rules_book, rules_source
from pycards.ui.web import create_app
from pycards.ui.web.tables import Table
from ui.test_web import _checked_message

ARTIFACTS = Path(os.environ.get("PYCARDS_TEST_ARTIFACTS", "test-artifacts")) / "web"
REQUIRED = os.environ.get("PYCARDS_REQUIRE_BROWSER") == "1"
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

#: One small game of each registered game (its quick preset): two people and a bot.
GAMES = [(case.name, 3, case.quick_preset) for case in REGISTERED.values()]


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    assert not REQUIRED, "PYCARDS_REQUIRE_BROWSER=1 but no system Chromium"
    pytest.skip("no system Chromium (apt-get install chromium)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Server:
    """uvicorn in a thread, on a given port and store."""

    def __init__(self, port: int, db: Path) -> None:
        import uvicorn

        self.app = create_app(bot_delay=0.01, db=db)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        for _ in range(400):
            if self.server.started:
                return
            time.sleep(0.025)
        raise AssertionError("the server did not start")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def pw() -> Iterator[Any]:
    try:
        from playwright import sync_api
    except ModuleNotFoundError:
        if REQUIRED:
            raise
        pytest.skip("playwright is not installed (pip install '.[test]')")
    exe = _chromium()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        yield browser
        browser.close()


_original_message = Table.message
spectator_frames: list[dict[str, Any]] = []


def _checked(
    self: Table, seat: int | None, away: set[int] | None = None, clocks: Any = None
) -> dict[str, Any]:
    """A spectator's message must not change when any seat's hidden cards do."""
    if seat is None:
        msg = _checked_message(self, seat, away, clocks)  # the check of tests/ui/test_web.py
        spectator_frames.append(msg)
        return msg
    return _original_message(self, seat, away, clocks)


def _act(page: Any, rng: random.Random) -> bool:
    """Make one legal move on ``page`` if it has one; whether it did."""
    cards = page.locator("#hand .card.legal")
    buttons = page.locator("#moves button[data-action]")
    asks = page.locator("#moves .ask select")
    n_cards, n_buttons, n_asks = cards.count(), buttons.count(), asks.count()
    if not n_cards + n_buttons + n_asks:
        return False
    turn = page.evaluate("document.body.dataset.turn")
    choice = rng.randrange(n_cards + n_buttons + n_asks)
    if choice < n_cards:
        card = cards.nth(choice)
        if rng.random() < 0.5:
            card.focus()
            page.keyboard.press("Enter")
        else:
            card.click()
    elif choice < n_cards + n_buttons:
        buttons.nth(choice - n_cards).click()
    else:
        select = asks.nth(choice - n_cards - n_buttons)
        values = select.locator("option").evaluate_all("os => os.map(o => o.value)")
        select.select_option(rng.choice([v for v in values if v]))
    page.wait_for_function(f"document.body.dataset.turn !== '{turn}'", timeout=20_000)
    return True


def _turn(page: Any) -> bool:
    """Whether the page's person is to act (the table waits for them)."""
    return bool(page.locator("#hand .card.legal, #moves button[data-action], #moves .ask").count())


def _shoot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # the cards at rest
    page.evaluate("Promise.allSettled(document.getAnimations().map((a) => a.finished))")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def _fits(page: Any) -> None:
    """Everything needed for a move is on one screen: the play and the hand."""
    height = page.viewport_size["height"]
    for sel in ("#play", "#hand"):
        box = page.locator(sel).bounding_box()
        assert box is not None and box["y"] + min(box["height"], 40) <= height, sel


def _one_screen(page: Any) -> None:
    """On a desktop the table is one screen: the page itself never scrolls
    (a long story scrolls the side column), and the scores stay in sight."""
    assert page.evaluate("document.scrollingElement.scrollHeight <= innerHeight + 1")
    box = page.locator("#scores table").bounding_box()
    height = page.viewport_size["height"]
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def _readable(page: Any) -> None:
    """No text a person sees is under 12 px (any element shown that holds
    text, and every field and button), and the scores are shown."""
    small = page.evaluate(
        """() => [...document.querySelectorAll('body *')].filter((e) =>
            e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden'
            && (['INPUT', 'SELECT', 'BUTTON', 'TEXTAREA'].includes(e.tagName)
                || [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
            && parseFloat(getComputedStyle(e).fontSize) < 12)
            .map((e) => e.tagName + '.' + e.className + ' ' + getComputedStyle(e).fontSize
                 + ': ' + e.textContent.slice(0, 20))"""
    )
    assert not small, small[:5]
    if page.evaluate("document.body.dataset.view") == "table":
        assert page.locator("#scores table").is_visible()


def _unboxed(page: Any) -> None:
    """On a phone the page scrolls, not little boxes in it: a scroll box of
    the side column (summaries, rules, log, chat) is 40% of the screen high
    or more, and every seat's score is on the first screen."""
    height = page.viewport_size["height"]
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('#side *')].filter((e) => e.getClientRects().length
            && ['auto', 'scroll'].includes(getComputedStyle(e).overflowY)
            && e.scrollHeight > e.clientHeight + 1)
            .map((e) => [e.id || e.className, e.clientHeight])"""
    )
    assert all(h >= 0.4 * height for _, h in boxes), boxes
    page.evaluate("scrollTo(0, 0)")
    for score in page.locator(".seat .score, #mybar").all():
        box = score.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


#: engine words that must not reach the page: numbered tricks and sides, a
#: -1, a version, an engine phase, a name read as "You is"
ENGINE_WORDS = re.compile(
    r"trick \d|for side \d|side \d wins|-1\b|\bversion \d|fallback|_|\bYou is\b|\bseat -?\d"
)


def _words(page: Any, seen: set[str], whole: bool = False) -> None:
    """Keep each line the page shows now: the table (``whole``: with its open
    side panels, the rules panel aside, whose words are the rule book's)."""
    text = page.evaluate(
        """(whole) => { const r = document.querySelector('#rules-box'), open = r.open;
        r.open = false;
        const t = whole ? document.body.innerText : document.querySelector('#felt').innerText;
        r.open = open;
        return t; }""",
        whole,
    )
    seen.update(line for line in text.split("\n") if line.strip())


#: Wraps the page's drawing of the play area: a card shown stays the same
#: element while its trick or count goes on (``__recreated`` lists any that
#: did not), and ``__closed`` is the last trick or count that ended.
PLAY_PROBE = """() => {
  if (window.__recreated) return;
  window.__recreated = []; window.__closed = null;
  let before = [];
  const draw = window.drawPlay;
  window.drawPlay = (m, ...rest) => {
    draw(m, ...rest);
    const now = [...document.querySelectorAll('#play .slot')]
      .map((s) => [s.querySelector('.card').dataset.card + '/' + s.textContent, s]);
    const going = before.length <= now.length && before.every(([k], i) => now[i][0] === k);
    if (going) before.forEach(([k, s], i) => { if (now[i][1] !== s) window.__recreated.push(k); });
    before = now;
    const area = m.play_area;
    if (area && area.closed) window.__closed = area.cards.map((x) => x[1]);
  };
}"""

#: Drops the page's connection; how many cards it offers once it knows.
DROP = """() => new Promise((done) => {
  const ws = conn.ws, told = ws.onclose;
  ws.onclose = (ev) => { told(ev); done(document.querySelectorAll('#hand .card.legal').length); };
  ws.close();
})"""

INJECTION = "<img src=x onerror=\"document.title='injected'\">"


def _last_trick(page: Any, shot: str) -> bool:
    """Reopen the last trick or count: the whole one that ended is shown,
    with the line that ended it, its cards still (a look back moves none);
    then back to the table.  Whether there was one to reopen (its screenshot
    is ``shot``)."""
    button = page.locator("#last-trick")
    if not button.is_visible():
        return False
    button.click()
    got = page.evaluate(
        """() => ({shown: [...document.querySelectorAll('#play .slot .card')]
                .map((c) => c.dataset.card),
            won: (document.querySelector('#play .won') || {}).textContent, closed: window.__closed,
            last: last.play_area.last})"""
    )
    assert got["shown"] == [c for _, c in got["last"]["cards"]] == got["closed"], got
    assert got["won"] == "Last: " + got["last"]["line"], got
    assert page.locator("#play .slot.new").count() == 0
    _shoot(page, shot)
    page.locator("#last-trick", has_text="Back to the table").click()
    return True


def _chat(sender: Any, readers: list[Any]) -> None:
    """A line said at the table reaches the other people and the spectator as
    plain text (markup shown as typed, never run); a spectator has nowhere
    to write."""
    sender.fill("#chat-text", INJECTION)
    sender.press("#chat-text", "Enter")
    for page in [sender, *readers]:
        line = page.locator("#chat-log li").last
        line.wait_for(state="visible", timeout=10_000)
        assert line.inner_text() == f"{sender.evaluate('last.names[last.seat]')}: {INJECTION}"
        assert page.locator("#chat-log img").count() == 0
        assert page.evaluate("document.title") != "injected"
    assert readers[-1].locator("#chat-form").is_hidden()


def _rules_panel(page: Any, table: Table) -> None:
    """The Rules panel gives the game's rules in plain words: the shipped
    text's sections (titles read from the file itself), with every paragraph
    and item of :func:`pycards.teach.rules_book`, before the table's
    settings; then it is closed again."""
    page.locator("#rules-box > summary").click()
    titles = re.findall(r"^\.\. rubric:: (.+)$", rules_source(table.game.NAME), re.M)
    headings = page.locator("#rules h3").all_inner_texts()
    assert headings == [*titles, "This table's settings"], headings
    assert REGISTERED[table.game.NAME].profile.rules_headings <= set(headings)
    shown = {" ".join(t.split()) for t in page.locator("#rules p, #rules li").all_inner_texts()}
    for section in rules_book(table.game):
        text = {" ".join(t.split()) for t in (*section.paragraphs, *section.items)}
        assert text <= shown, section.title
    page.locator("#rules-box > summary").click()
    assert not page.evaluate("document.querySelector('#rules-box').open")


def _prompt_shown(page: Any, table: Table) -> str:
    """At the page's person's decision, the status line says what is wanted
    in the words of the shared layer (:func:`pycards.teach.prompt` for the
    same seat's view); the prompt checked ("" when the page is not at the
    table's version, or the table moved on meanwhile)."""
    version = table.version
    page_at = page.evaluate("({version: last.version, seat: last.seat, names: last.names})")
    if page_at["version"] != version:
        return ""
    wanted = prompt(table.state.view(page_at["seat"]), page_at["names"])
    if table.version != version:  # a bot moved while it was read
        return ""
    assert wanted, "a person's decision with no prompt"
    assert page.locator("#status").inner_text() == f"Your turn: {wanted}."
    return wanted


def _lead(page: Any, name: str) -> bool:
    """Make the decision named ``name`` on ``page`` if it is offered; whether
    it was."""
    action = page.evaluate(f"(last.legal.find((a) => a.name === {name!r}) || {{}}).id")
    if action is None:
        return False
    turn = page.evaluate("document.body.dataset.turn")
    page.click(f"#moves button[data-action='{action}']")
    page.wait_for_function(f"document.body.dataset.turn !== '{turn}'", timeout=20_000)
    return True


LATE = "That move came too late: the table has moved on, so it was not played."


def _late_move_told(page: Any) -> None:
    """A move sent for a version the table has left is refused, and the page
    says so in people's words (no versions or turns)."""
    page.evaluate(
        """() => conn.ws.send(JSON.stringify({type: 'move', action: last.legal[0].id,
            version: last.version - 1}))"""
    )
    page.wait_for_function(f"document.querySelector('#error').textContent === {LATE!r}")


OPEN = "(d) => { d.open = true; }"


def _final_reasons(pages: list[Any], table: Table) -> None:
    """No Takers?: at the end every seat's final score, the bot's too, is
    shown with its reason (the seat's split into sets), as the shared layer
    (:mod:`pycards.summary`) tells it."""
    names = pages[0].evaluate("last.names")
    (summary,) = [s for s in story(table.state, None, names).summaries if s.is_game]
    lines = [named(line, names).strip() for line in summary.lines()[1:]]
    obs = table.state.view(0).observation
    assert isinstance(summary, NoTakersSummary) and isinstance(obs, NoTakersObservation)
    assert [split.points if split else None for split in summary.splits] == list(obs.points)
    for k, split in enumerate(summary.splits):
        assert split is not None, k  # every seat's cards are laid down at the end
        assert lines[k].startswith(f"{names[k]}: {split.points} point"), lines[k]
        sets = [str(s.cards) for s in split.sets]
        assert all(cards in lines[k] for cards in sets) and (sets or "no set" in lines[k])
    for page in pages:
        page.evaluate(
            "document.querySelectorAll('#rounds-box, #rounds details').forEach(" + OPEN + ")"
        )
        shown = page.locator("#rounds details.game li").all_inner_texts()
        assert shown == lines, (shown, lines)


def test_every_game_is_covered() -> None:
    assert {g for g, _, _ in GAMES} == set(game_names())


@pytest.mark.parametrize(("game", "players", "preset"), GAMES, ids=[g for g, _, _ in GAMES])
def test_two_people_play_a_whole_game_in_chromium(
    pw: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    players: int,
    preset: str | None,
) -> None:
    monkeypatch.setattr(Table, "message", _checked)
    spectator_frames.clear()
    port, db = _free_port(), tmp_path / "tables.sqlite3"
    server = _Server(port, db)
    url = f"http://127.0.0.1:{port}/"
    rng = random.Random(game)
    contexts = {k: pw.new_context(viewport=v) for k, v in SIZES.items()}
    # the spectator watches on a desktop at one game, on a phone at the next
    watching = list(SIZES)[[g for g, _, _ in GAMES].index(game) % 2]
    watcher_ctx = pw.new_context(viewport=SIZES[watching])
    try:
        ann = contexts["desktop"].new_page()
        bea = contexts["phone"].new_page()
        watcher = watcher_ctx.new_page()
        frames: list[str] = []
        watcher.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)))
        ann.goto(url)
        ann.wait_for_selector("body[data-ready=true]")
        ann.select_option("#game", game)
        ann.select_option("#players", str(players))
        ann.select_option("#preset", preset or "")
        ann.select_option("[data-seat-kind='1']", "")
        ann.fill("[data-seat-name='1']", "Bea")
        ann.fill("[data-seat-name='0']", "Ann")
        ann.select_option("[data-seat-kind='2']", "random")
        ann.click("#start")
        ann.wait_for_selector(f"body[data-game={game}]")
        invite = ann.locator("#invite-list a[data-invite='1']").get_attribute("href")
        assert invite
        bea.goto(invite)
        bea.wait_for_selector(f"body[data-game={game}][data-seat='1']")
        table_id = invite.split("t=")[1].split("&")[0]
        watcher.goto(f"{url}#t={table_id}")
        watcher.wait_for_selector("body[data-seat=spectator]")
        pages = {"desktop": ann, "phone": bea}
        everyone = [ann, bea, watcher]
        for page in everyone:
            page.evaluate(PLAY_PROBE)
        table = server.app.state.tables.find(table_id)
        assert table is not None
        for page in pages.values():
            _rules_panel(page, table)
        ann.click("#sound")  # Ann hears the table; Bea keeps it quiet
        seen: set[str] = set()
        prompts: set[str] = set()
        moves = 0
        restarted = reconnected = reopened = told_late = took = False
        lead = REGISTERED[game].profile.web_lead
        while ann.evaluate("document.body.dataset.terminal") != "true":
            acted = False
            for page in pages.values():
                _words(page, seen)
                if page is ann and not reopened and _turn(page):
                    reopened = _last_trick(page, f"{game}-desktop-last-trick")
                if _turn(page):
                    if page is ann and not told_late and moves:
                        told_late = True
                        _late_move_told(ann)
                    table = server.app.state.tables.find(table_id) or table  # after a restart
                    # the first decisions, and every one after a lead (cheap enough)
                    if len(prompts) < 12 or took:
                        prompts.add(_prompt_shown(page, table))
                    if lead and page is ann:
                        took = _lead(ann, lead[0]) or took
                acted = _act(page, rng) or acted
            moves += acted
            if moves == 1 and not ann.locator("#chat-log li").count():
                _chat(ann, [bea, watcher])
            if moves == 4:
                for size, page in pages.items():
                    _fits(page)
                    _readable(page)
                    _shoot(page, f"{game}-{size}-playing")
                _unboxed(bea)
                _one_screen(ann)
                _shoot(watcher, f"{game}-spectator-{watching}")
            if moves == 2 and not reconnected:
                reconnected = True
                # while the connection is down, no card is offered that nothing would play
                assert bea.evaluate(DROP) == 0
                bea.wait_for_selector("#banner:not([hidden])", timeout=5000)
                bea.wait_for_selector("body[data-connected=true]", timeout=10_000)
                assert bea.locator("#banner").is_hidden()
            if moves == 4 and REGISTERED[game].profile.web_restart and not restarted:
                restarted = True
                turn = ann.evaluate("document.body.dataset.turn")
                server.stop()
                ann.wait_for_selector("#banner:not([hidden])", timeout=10_000)
                server = _Server(port, db)  # the same file: the table resumes
                for page in pages.values():
                    page.wait_for_selector("body[data-connected=true]", timeout=15_000)
                assert ann.evaluate("document.body.dataset.turn") >= turn
            if not acted:
                time.sleep(0.02)
            assert moves < 1500
        for size, page in pages.items():
            page.wait_for_selector("body[data-terminal=true]")
            page.wait_for_selector("#result:not([hidden])")
            _words(page, seen, whole=True)
            if page is ann:
                _one_screen(page)
            _shoot(page, f"{game}-{size}-over")
            page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            _readable(page)
        _unboxed(bea)
        _one_screen(ann)
        watcher.wait_for_selector("body[data-terminal=true]")
        table = server.app.state.tables.find(table_id)
        assert table is not None and table.finished
        if game == "notakers":
            _final_reasons(everyone, table)
        _words(watcher, seen, whole=True)
        _shoot(watcher, f"{game}-spectator-{watching}-over")
        assert not [t for t in seen if ENGINE_WORDS.search(t)], sorted(
            t for t in seen if ENGINE_WORDS.search(t)
        )[:8]
        for page in everyone:
            assert page.evaluate("window.__recreated") == []
        closes = ann.evaluate("window.__closed") is not None
        # the table sounds for the person who turned it on, and for her only
        heard = ann.evaluate("window.pycardsSound.played")
        assert "turn" in heard and "card" in heard, heard[:20]
        assert closes or "won" not in heard  # a trick or count ended: only where they end
        assert bea.evaluate("window.pycardsSound.played") == []
        assert ann.locator("#sound").get_attribute("aria-pressed") == "true"
        assert bea.locator("#sound").inner_text() == "Sound off"
        assert reopened == closes  # a game whose tricks or counts end can reopen the last
        assert prompts - {""} and told_late
        if took and lead:  # the decision made by name led to the one asked in words
            assert any(re.match(lead[1], p) for p in prompts), sorted(prompts)
        shown = [int(x) for x in ann.locator("#scores td.num").all_inner_texts()]
        assert len(shown) == players
        assert [m["returns"] for m in spectator_frames][-1] == table.state.returns()
        assert frames and all('"hand"' not in f for f in frames)
        assert restarted == REGISTERED[game].profile.web_restart and reconnected
    finally:
        for c in [*contexts.values(), watcher_ctx]:
            c.close()
        server.stop()


def _open_table(page: Any, url: str, game: str, kinds: dict[int, str], players: int = 3) -> str:
    """Open a table from the form (seat 0: "Ann", seat 1: "Bea"); its id."""
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#game", game)
    page.select_option("#players", str(players))
    page.fill("[data-seat-name='0']", "Ann")
    page.fill("[data-seat-name='1']", "Bea")
    for seat, kind in kinds.items():
        page.select_option(f"[data-seat-kind='{seat}']", kind)
    page.click("#start")
    page.wait_for_selector(f"body[data-game={game}]")
    return str(page.evaluate("conn.table_id"))


def test_seats_belong_to_people_in_chromium(pw: Any, tmp_path: Path) -> None:
    """The creator sees the invite link at once; the lobby never offers an
    invited seat (nor hers); "Tables" and back keeps her seat; a seat taken
    by "No Takers?" saving works by a click on the card."""
    port = _free_port()
    server = _Server(port, tmp_path / "tables.sqlite3")
    url = f"http://127.0.0.1:{port}/"
    ctx = pw.new_context(viewport=SIZES["desktop"])
    other = pw.new_context(viewport=SIZES["phone"])
    try:
        ann, stranger = ctx.new_page(), other.new_page()
        table_id = _open_table(ann, url, "notakers", {1: "", 2: "random"})
        link = ann.locator("#invites:not([hidden]) a[data-invite='1']")
        link.wait_for(state="visible")
        invite = link.get_attribute("href")
        assert invite and table_id in invite
        _shoot(ann, "seats-invite-shown")
        stranger.goto(url)
        stranger.wait_for_selector("#lobby-list li button")
        assert stranger.locator("#lobby-list button", has_text="Sit as").count() == 0
        ann.click("#to-lobby")
        ann.locator("#lobby-list .back-to-seat").first.click()
        ann.wait_for_selector("body[data-seat='0']")
        assert ann.locator("#invites:not([hidden]) a[data-invite='1']").count() == 1
        # No Takers?: a card held can be saved by a click (asks have their picker)
        ann.wait_for_function("last && last.current_player === 0")
        saves = ann.locator("#hand .card.legal[aria-label^='save ']")
        assert saves.count() >= 1
        turn = ann.evaluate("document.body.dataset.turn")
        saves.first.click()
        ann.wait_for_function(f"document.body.dataset.turn !== '{turn}'")
        bea = other.new_page()
        bea.goto(invite)
        bea.wait_for_selector("body[data-seat='1']")
        _shoot(bea, "seats-invite-opened")
    finally:
        ctx.close()
        other.close()
        server.stop()


def test_the_lobby_refreshes_and_shows_no_empty_table_in_chromium(pw: Any, tmp_path: Path) -> None:
    """With no table and no finished game, the lobby and the finished games
    show no empty table frame and no replay bar; a new table appears in a
    lobby without a reload; a person who leaves her table for the lobby sees
    the lobby alone (no "Your turn." over cards nothing would play), and
    comes back to her seat."""
    port = _free_port()
    server = _Server(port, tmp_path / "tables.sqlite3")
    url = f"http://127.0.0.1:{port}/"
    contexts = {k: pw.new_context(viewport=v) for k, v in SIZES.items()}
    try:
        pages = {k: c.new_page() for k, c in contexts.items()}
        for size, page in pages.items():
            page.goto(url)
            page.wait_for_selector("body[data-ready=true]")
            assert page.locator("#table-view").is_hidden()
            _readable(page)
            page.click("#to-history")
            page.wait_for_selector("#history-list li.none")
            assert page.locator("#table-view").is_hidden()
            assert page.locator("#replay-bar").is_hidden()
            _readable(page)
            _shoot(page, f"history-empty-{size}")
            page.click("#to-lobby")
        ann, bea = pages["desktop"], pages["phone"]
        assert bea.locator("#lobby-list button").count() == 0
        game = next(iter(REGISTERED))
        table_id = _open_table(ann, url, game, {1: "random", 2: "random"})
        # the other lobby shows the new table by itself
        bea.locator("#lobby-list button", has_text="Watch").wait_for(timeout=10_000)
        assert table_id and bea.locator("#table-view").is_hidden()
        ann.wait_for_function("last && last.current_player === 0")
        ann.click("#to-lobby")
        ann.wait_for_selector("#lobby-list .back-to-seat")
        assert ann.locator("#table-view").is_hidden()
        assert (
            ann.get_by_text("Your turn.").count() == 0 or ann.get_by_text("Your turn.").is_hidden()
        )
        assert not [c for c in ann.locator(".card.legal").all() if c.is_visible()]
        _shoot(ann, "lobby-after-leaving")
        ann.locator("#lobby-list .back-to-seat").click()
        ann.wait_for_selector("body[data-seat='0'][data-view=table]")
        assert ann.locator("#table-view").is_visible() and ann.locator("#lobby-view").is_hidden()
    finally:
        for c in contexts.values():
            c.close()
        server.stop()
