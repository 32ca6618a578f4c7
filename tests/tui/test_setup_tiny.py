"""The setup in a tiny window (45x14): every control whole, reached by Tab, and a line
that says where the rest of the form is."""

from __future__ import annotations

from collections.abc import Callable

from tui_helpers import run, settle

from yacht.session import PlayerSpec
from yacht.tui import YachtApp

App = Callable[..., YachtApp]


def screen_text(app: YachtApp) -> list[str]:
    strips = app.screen._compositor.render_strips()
    return ["".join(seg.text for seg in strip) for strip in strips]


@run
async def test_the_setup_at_45x14_cuts_no_control_and_says_where_the_rest_is(
        new_app: App) -> None:
    """At 45x14 the setup cut '- Player (F4)', the dice setting, two checkboxes ('Next
    player pause before a computer plays', 'Roll at the start of each turn by itself'),
    the Quit button ('Quit (') and the line saying there was more of the form (off the
    right edge). Every control is whole inside the window, Tab brings each into view,
    and the title says where the rest of the form is."""
    from textual.containers import VerticalScroll
    from textual.widgets import Button, Checkbox

    from yacht.session import Config, save_config
    from yacht.tui.screens.setup import SetupScreen

    save_config(Config(variant="yahtzee",
                       players=[PlayerSpec("You"), PlayerSpec("Computer", "intermediate")]))
    app = new_app()
    async with app.run_test(size=(45, 14)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        for _ in range(6):
            await pilot.press("f3")  # eight players
        await settle(pilot)
        form = screen.query_one("#setup", VerticalScroll)
        right = form.scrollable_content_region.right
        for w in screen.query("#setup-buttons Button").results(Button):
            assert w.region.right <= 45 and w.region.width >= len(str(w.label)) + 2, w
        # Tab from the first control to the last: each is in view, whole, in its turn
        screen.query_one("#variant").focus()
        await settle(pilot)
        seen = set()
        for _ in range(40):
            w = app.focused
            assert w is not None
            if w.id == "start":
                break
            for _ in range(50):  # (the scroll comes after a refresh or two)
                if form.region.contains_region(w.region):
                    break
                await pilot.pause()
            assert form.region.contains_region(w.region), (w, w.region, form.region)
            assert w.region.right <= right, (w, w.region, right)
            if isinstance(w, Checkbox):
                assert w.region.width >= len(str(w.label)) + 4, w.label
            seen.add(w.id)
            if form.scroll_y > 0:
                top = screen_text(app)[0]
                assert "more above" in top, top
            await pilot.press("tab")
        assert {"variant", "remove", "name-7", "kind-7", "dice-mark",
                "computer-pause", "auto-roll"} <= seen, seen
        add = screen.query_one("#add")  # (no Tab stop with eight players: none to add)
        assert add.region.right <= right and add.region.width >= len("+ Player") + 2
        for i in range(8):  # a computer's kind on a line ('Computer: intermediate')
            assert screen.query_one(f"#kind-{i}").region.height == 1
        form.scroll_home(animate=False)
        await settle(pilot)
        top = screen_text(app)[0]
        assert "▼ more below" in top, top
        # back at 80 columns: the words beside the buttons, the whole words again
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert "more" not in screen_text(app)[0]
        assert str(screen.query_one("#quit", Button).label) == "Quit (Ctrl+Q)"
        assert "more below" in str(screen.query_one("#more").render())
