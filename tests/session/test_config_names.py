"""Remembered setup names are checked like typed ones: a damaged or hand-edited setup.json
with a control character in a name, or one name twice, gives the default players."""

from __future__ import annotations

import json

from yacht.session import Config, PlayerSpec, config_path, load_config


def write(players: list[dict[str, str]]) -> None:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"variant": "yatzy", "players": players}), encoding="utf-8")


def test_bad_names_are_not_remembered() -> None:
    default = Config().players
    for players in ([{"name": "Ann\x1b[2J"}], [{"name": "Ann"}, {"name": "ANN"}],
                    [{"name": "x" * 21}], [{"name": "\u202eAnn"}]):
        write(players)
        cfg = load_config()
        assert cfg.variant == "yatzy" and cfg.players == default, players
    write([{"name": "  Ann   Lee "}, {"name": "Max", "kind": "expert"}])
    assert load_config().players == [PlayerSpec("Ann Lee"), PlayerSpec("Max", "expert")]
