"""Small screens: at 80x24 every player's column, the totals and the result can be read
(a tighter card, the players' list, the cards of some players at a time)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot
from tui_helpers import game, run, settle

from yacht.engine import Roll
from yacht.session import Launch, PlayerSpec
from yacht.session.commands import GoOn, ScoreBox
from yacht.session.table import LOCAL
from yacht.tui import YachtApp
from yacht.tui.screens.end import EndScreen
from yacht.tui.screens.game import KEYS
from yacht.tui.widgets import ScoreCard, Standings

App = Callable[..., YachtApp]

EIGHT = ["Ann", "Bob", "Cyd", "Dan", "Intermediate=intermediate", "Expert=expert", "Eve",
         "Beginner=beginner"]


def specs(names: list[str]) -> list[PlayerSpec]:
    return [PlayerSpec(*n.split("=")) for n in names]


def screen_text(app: Any) -> list[str]:
    strips = app.screen._compositor.render_strips()
    return ["".join(seg.text for seg in strip) for strip in strips]


def all_in_view(card: ScoreCard) -> None:
    """The whole card is on the screen: no column or row scrolled away."""
    assert card.virtual_size.width <= card.scrollable_content_region.width, \
        (card.virtual_size, card.scrollable_content_region)
    assert card.virtual_size.height <= card.scrollable_content_region.height
    assert card.max_scroll_x == 0 and card.max_scroll_y == 0


def no_stub(lines: list[str], names: list[str]) -> None:
    """No name shows cut (``Intermedia``): each shows whole or not at all."""
    text = "\n".join(lines)
    for name in names:
        for cut in range(4, len(name)):
            stub = name[:cut]
            at = text.find(stub)
            while at >= 0:
                assert text[at:at + len(name)] == name, f"{name!r} cut to {stub!r}"
                at = text.find(stub, at + 1)


async def play_turns(pilot: Pilot[Any], turns: int) -> None:
    """People roll and score their first open box; the pauses are left."""
    g = game(pilot)
    t = g.table
    for _ in range(turns):
        await settle(pilot)
        view = t.view()
        if view.over:
            break
        if view.pause is not None:
            t.act(LOCAL, GoOn())
            continue
        if view.computer_turn or view.over:
            continue
        if not view.state.dice:
            await pilot.press("r")
            await settle(pilot)
        view = t.view()
        if view.computer_turn or view.pause is not None or not view.state.dice:
            continue
        first = view.state.placements()[0]
        t.act(LOCAL, ScoreBox(first.category, first.column))
    await settle(pilot)


async def through_the_table(pilot: Pilot[Any], open_boxes: int) -> None:
    """Turns played on the table itself, not on the screen (people roll and score their
    first open box, computers play their own turns), until the player on turn has
    ``open_boxes`` boxes left; then the screen catches up."""
    t = game(pilot).table
    while True:
        view = t.view()
        if view.over:
            break
        if view.pause is not None:
            t.act(LOCAL, GoOn())
            continue
        st = view.state
        if sum(b is None for col in st.card(st.current).boxes for b in col) <= open_boxes:
            break
        if view.computer_turn:
            if not t.run_due():
                await settle(pilot)  # (its move is not due yet: the app's driver has it)
            continue
        t.act(LOCAL, Roll())
        first = t.view().state.placements()[0]
        t.act(LOCAL, ScoreBox(first.category, first.column))
    await settle(pilot)


@run
async def test_three_players_ten_dice_two_columns_at_80x24(new_app: App) -> None:
    app = new_app(Launch(variant="ancient-yacht-10-double",
                         players=specs(["Ann", "Bob", "Cyd"])))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        card = g.query_one(ScoreCard)
        for _ in range(4):
            await play_turns(pilot, 1)
            await pilot.press("r")
            await settle(pilot)
            assert card.shown == (0, 1, 2)  # every card, both columns, the totals
            all_in_view(card)
        lines = screen_text(app)
        head = lines[1] + lines[2]
        assert all(name in head for name in ("Ann", "Bob", "Cyd")), head
        assert any("Grand total" in line for line in lines)


@run
async def test_eight_players_five_dice_at_80x24(new_app: App) -> None:
    app = new_app(Launch(variant="yahtzee", players=specs(EIGHT)))
    names = [n.split("=")[0] for n in EIGHT]
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        card = g.query_one(ScoreCard)
        await play_turns(pilot, 10)
        assert card.shown == tuple(range(8))  # players 7 and 8 too
        all_in_view(card)
        # the card names the players by number, the list beside it by their whole names
        players = g.query_one(Standings)
        assert players.display
        lines = screen_text(app)
        for i, name in enumerate(names, 1):
            assert any(f"{i} {name}" in line for line in lines), name
        no_stub(lines, names)


@run
async def test_eight_players_ten_dice_two_columns_show_some_cards(new_app: App) -> None:
    app = new_app(Launch(variant="ancient-yacht-10-double", players=specs(EIGHT)))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        card = g.query_one(ScoreCard)
        assert 1 <= len(card.shown) < 8 and 0 in card.shown  # the one on turn first
        all_in_view(card)
        lines = screen_text(app)
        no_stub(lines, [n.split("=")[0] for n in EIGHT])
        # every card can be looked at: < and >
        seen = set(card.shown)
        for _ in range(8):
            await pilot.press("greater_than_sign")
            await settle(pilot)
            seen |= set(card.shown)
            all_in_view(card)
        assert seen == set(range(8))
        await play_turns(pilot, 1)  # a new turn: the card on turn comes back
        assert g.table._game.state.current in card.shown


@run
async def test_the_end_at_80x24_shows_the_result_and_every_total(new_app: App) -> None:
    app = new_app(Launch(variant="yahtzee", players=specs(EIGHT)))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        t = g.table
        # (all rounds but the last through the table: the turns' screens are not what
        # this test looks at, and 96 turns drawn with eight cards took most of a minute)
        await through_the_table(pilot, open_boxes=1)
        while not t.view().over:
            await play_turns(pilot, 8)
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        end = app.screen
        assert isinstance(end, EndScreen)
        lines = screen_text(app)
        text = "\n".join(lines)
        st = g.table._game.state
        winner = st.players[st.winners()[0]].name
        assert f"{winner} win" in text  # the result, on the screen
        card = end.query_one("#final-card", ScoreCard)
        assert card.shown == tuple(range(8))
        all_in_view(card)
        grand = next(line for line in lines if "Grand total" in line)
        assert all(str(total) in grand for total in st.returns())
        assert "Top ten" not in text.replace("Top ten (t)", "").replace("t Top ten", "")
        no_stub(lines, [n.split("=")[0] for n in EIGHT])


@run
async def test_the_setup_at_80x24_shows_every_option_or_says_there_is_more(
        new_app: App) -> None:
    """Yahtzee (the variant with the most options) and two players: every control of the
    setup is on the screen. Eight players: the form scrolls, and a line says so."""
    from textual.widgets import Static

    from yacht.session import Config, save_config
    from yacht.tui.screens.setup import SetupScreen

    save_config(Config(variant="yahtzee",
                       players=[PlayerSpec("You"), PlayerSpec("Computer", "intermediate")]))
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        form = screen.query_one("#setup")
        controls = [w for w in screen.query("Choice, Checkbox, Input, Button") if w.display]
        assert len(controls) >= 14
        for w in controls:
            assert screen.region.contains_region(w.region), w
            assert w.id in ("start", "topten-button", "quit") or \
                form.region.contains_region(w.region), f"{w!r} is below the fold"
        more = screen.query_one("#more", Static)
        assert not more.display
        for _ in range(6):
            await pilot.press("f3")  # eight players
        await settle(pilot)
        assert form.max_scroll_y > 0
        form.scroll_home(animate=False)
        await settle(pilot)
        assert more.display and "more below" in str(more.render())
        last = screen.query_one("#auto-roll")
        last.focus()  # Tab reaches the last one: it scrolls into view
        for _ in range(100):  # (the scroll comes after a refresh or two)
            await pilot.pause()
            if form.region.contains_region(last.region) and form.scroll_y > 0:
                break
        assert form.region.contains_region(last.region)
        assert more.display and "more above" in str(more.render())


@run
async def test_every_box_in_view_at_80x24_with_four_players(new_app: App) -> None:
    """Four players at 80x24: every row of every card in view, whatever the variant: Maxi
    Yatzy's twenty boxes folded in two halves side by side (a box of the second half scores
    from the card), Kismet's card without the lower total."""
    from yacht.render import card_layout
    from yacht.tui.widgets.card import short_label

    for variant, folded in (("maxi-yatzy", True), ("kismet", False), ("generala", False),
                            ("yahtzee", False), ("ancient-yacht-10-double", False)):
        app = new_app(Launch(variant=variant,
                             players=specs(["Ann", "Bob", "Cyd", "Cpu=intermediate"])))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            g = game(pilot)
            card = g.query_one(ScoreCard)
            await pilot.press("r")
            await settle(pilot)
            assert card.shown == (0, 1, 2, 3), variant
            all_in_view(card)
            assert bool(card.style_now.split) == folded, variant
            rs = g.table.ruleset
            text = "\n".join(screen_text(app))
            boxes = [r.label for r in card_layout(rs) if r.kind == "box"]
            assert all(short_label(b) in text or b in text for b in boxes), variant
            assert "Grand total" in text, variant
            if folded:
                # the last box is in the second half: the cursor on it and Enter score it
                last = rs.categories[-1].id
                card.focus()
                card.move_to(last, 0, 0)
                assert card.cursor_coordinate.column > 2 + 4 * len(rs.columns)
                await pilot.press("enter")
                await settle(pilot)
                index = [c.id for c in rs.categories].index(last)
                assert not g.table.view().state.card(0).is_open(0, index), variant


@run
async def test_the_end_of_maxi_yatzy_at_80x24_shows_every_box(new_app: App) -> None:
    """The end of a game of four with Maxi Yatzy's twenty boxes: the result, and every
    box and total of every card in view (the card folded beside the results)."""
    app = new_app(Launch(variant="maxi-yatzy", players=specs(["Ann", "Bob", "Cyd", "Dan"])))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        t = g.table
        while not t.view().over:  # (through the table: the turns' screens are not looked at)
            view = t.view()
            if view.pause is not None:
                t.act(LOCAL, GoOn())
                continue
            t.act(LOCAL, Roll())
            first = t.view().state.placements()[0]
            t.act(LOCAL, ScoreBox(first.category, first.column))
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        end = app.screen
        assert isinstance(end, EndScreen)
        card = end.query_one("#final-card", ScoreCard)
        assert card.shown == (0, 1, 2, 3)
        all_in_view(card)
        lines = screen_text(app)
        st = t._game.state
        grand = next(line for line in lines if "Grand total" in line)
        assert all(str(total) in grand for total in st.returns())
        text = "\n".join(lines)
        assert f"{st.players[st.winners()[0]].name} win" in text


def standings_on_screen(app: Any) -> list[str]:
    """The lines the players' list takes on the screen (what of it is in view)."""
    region = app.screen.query_one(Standings).region.intersection(
        app.screen.query_one("#left").region)
    lines = screen_text(app)
    return [line[region.x:region.right] for line in lines[region.y:region.bottom]]


@run
async def test_eight_players_of_ten_dice_each_keep_a_line_with_their_total(
        new_app: App) -> None:
    """Ancient Yacht Challenge (ten dice in two lines) with eight players at 80x24: every
    player is in the list with their total, a long name and a wide one (an emoji: two
    cells) included; the long name is cut rather than wrapped when the lines run out."""
    names = ["You", "Bob", "Cy", "Di", "Bartholomew-Maximili", "Player 6", "Zoë 🎲", "Hal"]
    app = new_app(Launch(variant="ancient-yacht-10", players=specs(names)))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play_turns(pilot, 3)
        snap = game(pilot).snap
        lines = standings_on_screen(app)
        assert len(lines) == 8
        for i, p in enumerate(snap["players"], 1):
            line = next((x for x in lines if x[1:].startswith(f"{i} ")), None)
            assert line is not None, (i, lines)
            assert line.rstrip().endswith(f" {p['total']}"), (line, lines)
        assert any("Bartholomew-" in x and "…" in x for x in lines), lines


@run
async def test_a_card_too_long_for_the_screen_scrolls_by_the_keys_and_says_so(
        new_app: App) -> None:
    """Maxi Yatzy with eight players at 80x24: its 24 rows do not fit. The heading of the
    box names says PgDn; PgDn (whatever has the focus) brings the last boxes and the Grand
    total into view, and the heading then says PgUp; PgUp goes back."""
    app = new_app(Launch(variant="maxi-yatzy", players=specs(
        ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        card = g.query_one(ScoreCard)
        await pilot.press("r")
        await settle(pilot)
        assert card.shown == tuple(range(8))
        text = "\n".join(screen_text(app))
        assert "Grand total" not in text and "▼ PgDn" in text
        assert app.focused is not card
        await pilot.press("pagedown")
        await settle(pilot)
        text = "\n".join(screen_text(app))
        assert "Grand total" in text and "Maxi Yatzy  " in text, text
        assert "▲ PgUp" in text and "PgDn" not in text
        await pilot.press("pageup")
        await settle(pilot)
        text = "\n".join(screen_text(app))
        assert "e Ones" in text and "▼ PgDn" in text
        await pilot.press("end")
        await settle(pilot)
        assert "Grand total" in "\n".join(screen_text(app))
        assert any(key == "PgUp / PgDn" for key, _ in KEYS)  # the help says so too


@run
async def test_kismet_with_eight_players_shows_the_grand_total(new_app: App) -> None:
    """Kismet with eight players at 80x24: the cards that fit show every row down to the
    Grand total (the lower total left out), every player is in the list with a total."""
    app = new_app(Launch(variant="kismet", players=specs(
        ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        card = g.query_one(ScoreCard)
        await play_turns(pilot, 2)
        assert 4 <= len(card.shown) < 8
        all_in_view(card)
        lines = screen_text(app)
        assert any("Grand total" in line for line in lines)
        left = standings_on_screen(app)
        for i in range(1, 9):
            assert any(x[1:].startswith(f"{i} ") for x in left), (i, left)


@run
async def test_the_end_of_a_card_too_long_scrolls_by_the_keys(new_app: App) -> None:
    """The end of Maxi Yatzy with eight players at 80x24: PgDn brings the final card's
    Grand total into view (the card has no focus: it scrolled only by the mouse)."""
    app = new_app(Launch(variant="maxi-yatzy", players=specs(
        ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        t = game(pilot).table
        await through_the_table(pilot, open_boxes=0)
        while not t.view().over:
            t.act(LOCAL, GoOn())
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        text = "\n".join(screen_text(app))
        assert "Grand total" not in text and "▼ PgDn" in text
        await pilot.press("pagedown")
        await settle(pilot)
        lines = screen_text(app)
        grand = next(line for line in lines if "Grand total" in line)
        assert all(str(total) in grand for total in t._game.state.returns())


@run
async def test_a_clipped_log_keeps_the_newest_messages(new_app: App) -> None:
    """Ten dice and two players at 80x24: the log has room for some of its lines, and
    they are the newest (the computer's score, not the person's of before); Maxi Yatzy's
    crowded table shows its log too in the lines left free."""
    for variant in ("ancient-yacht-10", "maxi-yatzy"):
        app = new_app(Launch(variant=variant, players=specs(["Ann", "Cpu=beginner"])))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            g = game(pilot)
            g.table.pause_between_people = False
            g.yacht_app.config.computer_pause = False
            await play_turns(pilot, 6)
            news = g.table.view().news
            assert len(news) >= 3
            log = g.query_one("#log")
            text = " ".join(" ".join(screen_text(app)).split())
            assert log.region.height >= 2, variant
            assert news[-1] in text, (variant, news, text)


@run
async def test_a_help_line_of_three_lines_is_shortened_to_its_two(new_app: App) -> None:
    """Kismet's second Kismet at 80x24: the rule's words and how to score fill more than
    the help line's two lines (its end was cut off, mid-sentence); the line now leaves
    out its last alternative and ends whole."""
    from textual.widgets import Static

    app = new_app(Launch(variant="kismet", players=specs(["Ann", "Bob"])))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        t = g.table
        t.real_dice = True  # the test says what the dice show
        t.pause_between_people = False
        t.act(LOCAL, Roll((6, 6, 6, 6, 6), entered=True), ScoreBox("kismet"))
        t.act(LOCAL, Roll((1, 2, 3, 4, 6), entered=True), ScoreBox("yarborough"))
        t.act(LOCAL, Roll((5, 5, 5, 5, 5), entered=True))  # Ann's second Kismet
        g.refresh_all()
        await settle(pilot)
        bar = g.query_one("#helpbar", Static)
        lines = screen_text(app)[bar.region.y:bar.region.bottom]
        text = " ".join(" ".join(lines).split())
        assert text.startswith("A second Kismet: once it is scored, every other player")
        assert text.endswith("topmost open box. Score: a letter or a click."), lines
