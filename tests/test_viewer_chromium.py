"""The ``killteam view`` page in headless Chromium: it draws, its steps differ, its script
reports no error (issue 31, part 4). Skipped only when no Chromium is installed."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest

from engine.play.viewer import view_data, view_html

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
FIGHT = SCENARIOS / "edge_07_fight_incapacitated_mid_sequence.toml"

CHROMIUM = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH")

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--window-size=1280,800",
)


def _start(url: str, profile: Path, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", *extra, url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _finish(proc: subprocess.Popen[bytes]) -> tuple[str, str]:
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    return out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def test_view_page_draws_three_different_steps_without_error(tmp_path: Path) -> None:
    """Steps 0, 2 and 3 of edge 07 are different positions (TAR-2 is incapacitated in step
    2, PRO-1 in step 3): the screenshots are not blank and differ; the page reached each
    step (``data-step``) with ``data-status="ok"``, an empty error box and no console
    message. A page whose data is broken shows ``data-status="error"`` (the check works)."""
    from PIL import Image, ImageChops

    page = tmp_path / "fight.html"
    page.write_text(view_html(view_data(FIGHT)), encoding="utf-8")
    broken = tmp_path / "broken.html"
    text = page.read_text(encoding="utf-8")
    opening = '<script id="data" type="application/json">'
    start = text.index(opening) + len(opening)
    end = text.index("</script>", start)
    broken.write_text(text[:start] + "{not json" + text[end:], encoding="utf-8")
    url = page.resolve().as_uri()
    steps = (0, 2, 3)
    shots = [tmp_path / f"step{n}.png" for n in steps]
    procs = [
        _start(f"{url}#step={n}", tmp_path / f"p{n}", f"--screenshot={shot}")
        for n, shot in zip(steps, shots, strict=True)
    ]
    dom = _start(f"{url}#step=2", tmp_path / "pd", "--enable-logging=stderr", "--v=0", "--dump-dom")
    bad = _start(broken.resolve().as_uri(), tmp_path / "pb", "--dump-dom")
    for proc in procs:
        _finish(proc)
    html, log = _finish(dom)
    bad_html, _ = _finish(bad)

    assert 'data-status="ok"' in html and 'data-step="2"' in html, html[:400]
    assert '<pre id="errors" hidden=""></pre>' in html
    assert "CONSOLE" not in log, [line for line in log.splitlines() if "CONSOLE" in line]
    assert 'data-status="error"' in bad_html and "error:" in bad_html

    images = []
    for shot in shots:
        with Image.open(io.BytesIO(shot.read_bytes())) as im:
            rgb = im.convert("RGB")
        colours = rgb.getcolors(maxcolors=1 << 20)
        assert colours is None or len(colours) > 50, f"{shot.name} is blank"
        images.append(rgb)
    for i in range(len(images)):
        for j in range(i + 1, len(images)):
            diff = ImageChops.difference(images[i], images[j]).getbbox()
            assert diff is not None, f"steps {steps[i]} and {steps[j]} look the same"
