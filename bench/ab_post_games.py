"""POST /games served by two checkouts of the service, alternated in one run.

    git worktree add --detach /tmp/ratings-old <old commit>
    git worktree add --detach /tmp/ratings-new <new commit>
    .venv/bin/python bench/ab_post_games.py --old /tmp/ratings-old --new /tmp/ratings-new \\
        [--rounds 4] [--database postgresql] [--system fundox] [--pg-database bench_ab]

Each round runs one ``bench/run_post_games.py`` target per checkout: old, then new, the same
order every round (old, new, old, new, ...). Each run gets a fresh schema, its own server
started from the checkout (cwd and PYTHONPATH, with every worker's ``app`` import checked, see
``Server.verify_checkout``), the same warm-up, the same seeded games and the same correctness
check. On a shared machine the speed drifts, and alternating puts that drift on both sides.
The results are ``bench/results/ab-post-games-<UTC time>.json`` and ``.md``: every run, and
per side the median and range of games/s and of p50 / p99, plus new ÷ old for each round's
pair.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import secrets
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run_post_games as rpg

SIDES = ("old", "new")


def run_side(
    label: str, checkout: Path, round_: int, args: argparse.Namespace, workdir: Path
) -> dict[str, Any]:
    options = argparse.Namespace(
        duration=args.duration,
        warmup=args.warmup,
        connections=args.connections,
        workers=args.workers,
        threads=args.threads,
        players=args.players,
        systems=[args.system],
        seed=args.seed,  # the same games for both sides
        server_env=[],
        profile_dir=None,
        py_spy=None,
        checkout=checkout,
    )
    token = secrets.token_urlsafe(24)
    unit_dir = workdir / f"{label}-{round_}"
    unit_dir.mkdir()
    (row,) = rpg.bench_target(args.database, options, token, unit_dir, secrets.token_hex(3))
    row.update(side=label, round=round_, loadavg_after=os.getloadavg())
    return row


def spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    per_side: dict[str, Any] = {}
    for side in SIDES:
        mine = [r for r in rows if r["side"] == side]
        per_side[side] = {
            "games_per_s": spread([r["games_per_s"] for r in mine]),
            "p50_ms": spread([r["latency_ms"]["p50"] for r in mine]),
            "p99_ms": spread([r["latency_ms"]["p99"] for r in mine]),
            "server_cpu_ms_per_game": spread([r["cpu_ms_per_game"]["server"] for r in mine]),
        }
    pairs = []
    for round_ in sorted({r["round"] for r in rows}):
        old, new = (next(r for r in rows if r["round"] == round_ and r["side"] == s) for s in SIDES)
        pairs.append(
            {
                "round": round_,
                "games_per_s_new_over_old": new["games_per_s"] / old["games_per_s"],
                "p99_new_over_old": new["latency_ms"]["p99"] / old["latency_ms"]["p99"],
                # CPU time per game moves least with other work on the machine.
                "server_cpu_per_game_new_over_old": new["cpu_ms_per_game"]["server"]
                / old["cpu_ms_per_game"]["server"],
            }
        )
    ratios = {
        key: spread([p[key] for p in pairs])
        for key in (
            "games_per_s_new_over_old",
            "p99_new_over_old",
            "server_cpu_per_game_new_over_old",
        )
    }
    return {"per_side": per_side, "pairs": pairs, "ratios": ratios}


def markdown(report: dict[str, Any]) -> str:
    cfg, summary = report["config"], report["summary"]
    sides = report["checkouts"]
    lines = [
        f"# POST /games, old vs new code alternated: {report['date']}",
        "",
        f"Old {sides['old']['git_commit']} ({sides['old']['path']}), new "
        f"{sides['new']['git_commit']} ({sides['new']['path']}); {cfg['database']}, "
        f"{cfg['system']}, {cfg['workers']} workers, {cfg['connections']} connections, "
        f"{cfg['duration']} s measured after {cfg['warmup']} s warm-up, {cfg['rounds']} rounds "
        "(old, new in every round). nproc "
        f"{report['machine']['nproc']}, {report['machine']['cpu_model']}, PostgreSQL "
        f"{report['machine']['postgresql']}. **The machine was shared** with other work "
        "(see the *other* CPU column and the load average): compare the sides within a "
        "round, not with other files.",
        "",
        "| round | side | games/s | p50 ms | p99 ms | max ms | server CPU ms/game | "
        "CPU % server / postgres / wrk / other | busy before % | load avg after | late | "
        "check |",
        "|---:|---|---:|---:|---:|---:|---:|---|---:|---|---:|---|",
    ]
    for row in report["runs"]:
        lat, cpu = row["latency_ms"], row["cpu_pct_of_one_core"]
        check = row["check"]
        lines.append(
            f"| {row['round']} | {row['side']} | {row['games_per_s']:.0f} | {lat['p50']:.1f} | "
            f"{lat['p99']:.1f} | {lat['max']:.0f} | {row['cpu_ms_per_game'].get('server')} | "
            f"{cpu['server_pct']} / {cpu['postgres_pct']} / {cpu['wrk_pct']} / "
            f"{cpu['other_pct']} | {row['background_busy_pct_before']} | "
            f"{' '.join(f'{x:.1f}' for x in row['loadavg_after'])} | {row['late_games']} | "
            f"{'ok' if check['ok'] else 'FAILED'} ({check['ladder_games']} stored) |"
        )
    lines += ["", "| side | games/s median (range) | p50 ms | p99 ms | server CPU ms/game |"]
    lines.append("|---|---|---|---|---|")
    for side in SIDES:
        s = summary["per_side"][side]
        lines.append(
            f"| {side} | "
            + " | ".join(
                f"{s[k]['median']:.{d}f} ({s[k]['min']:.{d}f}–{s[k]['max']:.{d}f})"
                for k, d in (
                    ("games_per_s", 0),
                    ("p50_ms", 1),
                    ("p99_ms", 1),
                    ("server_cpu_ms_per_game", 2),
                )
            )
            + " |"
        )
    r = summary["ratios"]
    lines += [
        "",
        "New ÷ old within each round: games/s "
        + ", ".join(f"{p['games_per_s_new_over_old']:.2f}" for p in summary["pairs"])
        + f" (median {r['games_per_s_new_over_old']['median']:.2f}); p99 "
        + ", ".join(f"{p['p99_new_over_old']:.2f}" for p in summary["pairs"])
        + f" (median {r['p99_new_over_old']['median']:.2f}); server CPU per game "
        + ", ".join(f"{p['server_cpu_per_game_new_over_old']:.2f}" for p in summary["pairs"])
        + f" (median {r['server_cpu_per_game_new_over_old']['median']:.2f}).",
        "",
        "Every process of every server imported `app` from its own checkout (checked through "
        "bench/import_probe; the paths are in the JSON, `app_imported_from`). *late*: games "
        "the service found earlier than a player's last one, so it took the ladder's "
        "exclusive lock and recomputed. The load never sends them; they happen when requests "
        "wait longer than a player's next game takes to come round, and a run with any "
        "measures the recomputation's stall as well.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="checkout of the old code")
    parser.add_argument("--new", type=Path, required=True, help="checkout of the new code")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--database", default="postgresql", help="a run_post_games target")
    parser.add_argument("--system", default="fundox", choices=sorted(rpg.SYSTEMS))
    parser.add_argument("--duration", type=int, default=15)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--pg-database", default="test")
    parser.add_argument("--results", type=Path, default=rpg.RESULTS)
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        parser.error("wrk is not installed: apt-get install -y wrk")
    if args.duration > 120 or args.warmup > 60 or args.rounds > 10:
        parser.error("keep runs bounded: --duration <= 120, --warmup <= 60, --rounds <= 10")
    checkouts = {"old": args.old.resolve(), "new": args.new.resolve()}
    for label, path in checkouts.items():
        if not (path / "app" / "__init__.py").is_file():
            parser.error(f"--{label} {path}: no app/ package there")
    rpg.use_pg_database(args.pg_database)
    now = dt.datetime.now(dt.UTC)
    report: dict[str, Any] = {
        "benchmark": "POST /games, old vs new alternated",
        "date": now.isoformat(timespec="seconds"),
        "machine": rpg.machine_facts(),
        "checkouts": {label: rpg.checkout_facts(path) for label, path in checkouts.items()},
        "config": {
            key: getattr(args, key)
            for key in (
                "rounds",
                "database",
                "system",
                "duration",
                "warmup",
                "connections",
                "workers",
                "threads",
                "players",
                "seed",
                "pg_database",
            )
        },
        "loadavg_start": os.getloadavg(),
        "runs": [],
    }
    print(json.dumps(report["checkouts"]), flush=True)
    with tempfile.TemporaryDirectory(prefix="ratings-ab-post-") as tmp:
        for round_ in range(args.rounds):
            for label in SIDES:
                row = run_side(label, checkouts[label], round_, args, Path(tmp))
                report["runs"].append(row)
                print(
                    f"round {round_} {label}: {row['games_per_s']} games/s, p99 "
                    f"{row['latency_ms']['p99']} ms, check {row['check']['ok']}",
                    flush=True,
                )
    report["summary"] = summarise(report["runs"])
    stamp = now.strftime("%Y%m%dT%H%M%SZ")
    args.results.mkdir(parents=True, exist_ok=True)
    json_path = args.results / f"ab-post-games-{stamp}.json"
    md_path = args.results / f"ab-post-games-{stamp}.md"
    json_path.write_text(json.dumps(report, indent=2) + "\n")
    text = markdown(report)
    md_path.write_text(text)
    print(text)
    print(f"wrote {json_path} and {md_path}")
    if not all(row["check"]["ok"] for row in report["runs"]):
        print("correctness check FAILED (see the check column)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
