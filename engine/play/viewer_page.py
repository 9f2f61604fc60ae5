"""The HTML page of ``killteam view`` (:mod:`engine.play.viewer`): one template with its style
and script inline, no external resource (no network, no font, no CDN).

``{{TITLE}}`` is replaced by the page's title (HTML-escaped) and ``{{DATA}}`` by the JSON of
:func:`engine.play.viewer.view_data` (escaped for a script element). The script puts every
text on the page with ``textContent`` (never as markup), builds the cumulative state of each
frame from the frames' changes once, and draws the board as SVG in board inches (y grows
north, as in the pictures of :mod:`engine.geometry.render`).
"""

from __future__ import annotations

__all__ = ["PAGE"]

_STYLE = """
:root{--a:#1f63b5;--b:#c0392b;--ink:#222;--mute:#666;--bg:#faf8f3}
*{box-sizing:border-box}
body{margin:0;font:14px/1.35 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
 color:var(--ink);background:var(--bg)}
header{padding:8px 14px;border-bottom:1px solid #ddd;background:#fff}
h1{font-size:17px;margin:0 0 2px}
#status{color:var(--mute)}
#status b{color:var(--ink)}
main{display:flex;gap:12px;padding:10px 14px;align-items:flex-start}
#boardwrap{flex:1 1 auto;min-width:0}
#board{width:100%;height:auto;background:#fff;border:1px solid #ccc}
aside{flex:0 0 380px;max-height:calc(100vh - 140px);overflow:auto}
#steplabel{font-weight:600;margin-bottom:4px}
#actions{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;color:#333;
 margin-bottom:6px;white-space:pre-wrap}
#dice{display:flex;flex-wrap:wrap;gap:4px;margin-bottom:6px}
.die{display:inline-flex;width:22px;height:22px;border:1.5px solid #333;border-radius:5px;
 align-items:center;justify-content:center;font-weight:700;background:#fff}
.die.six{background:#222;color:#fff}.die.one{color:#b00}
.roll{display:flex;gap:3px;margin-right:10px}
#log{margin:0 0 10px;padding-left:18px}
#log li{margin:2px 0}
.sec{display:inline-block;margin-left:6px;padding:0 5px;border-radius:8px;background:#eee;
 color:#555;font-size:11px}
table{border-collapse:collapse;width:100%;font-size:12px}
td,th{padding:1px 4px;text-align:left;border-bottom:1px solid #eee}
tr.out td{color:#999;text-decoration:line-through}
tr.exp td{color:#777}
nav{display:flex;gap:6px;align-items:center;padding:8px 14px;border-top:1px solid #ddd;
 background:#fff;position:sticky;bottom:0}
nav button{font-size:15px;min-width:38px;padding:3px 8px}
#slider{flex:1}
#counter{font-variant-numeric:tabular-nums;min-width:110px;text-align:right}
#errors{color:#b00;background:#fee;padding:8px;margin:8px 14px;white-space:pre-wrap}
.pA{color:var(--a)}.pB{color:var(--b)}
"""

_SCRIPT = r"""
"use strict";
(function () {
  var errs = document.getElementById("errors");
  function fail(msg) {
    errs.hidden = false;
    errs.textContent += msg + "\n";
    document.body.setAttribute("data-status", "error");
  }
  window.addEventListener("error", function (e) { fail("error: " + e.message); });
  var NS = "http://www.w3.org/2000/svg";
  function el(tag, attrs, parent) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) { e.setAttribute(k, attrs[k]); }
    if (parent) { parent.appendChild(e); }
    return e;
  }
  function h(tag, text, cls, parent) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    if (cls) { e.className = cls; }
    if (parent) { parent.appendChild(e); }
    return e;
  }
  try {
    var D = JSON.parse(document.getElementById("data").textContent);
    var B = D.board, W = B.width, H = B.depth;
    var COL = { A: D.players.A.colour, B: D.players.B.colour };
    var frames = D.frames;
    // The whole state of each frame, from the changes each carries.
    var snaps = [];
    var cur = { o: {}, m: [], t: [], h: [], g: [0, "", "", 0, 0, 0, 0, {}, ""] };
    for (var i = 0; i < frames.length; i++) {
      var f = frames[i];
      var o = Object.assign({}, cur.o);
      if (f.o) { for (var k in f.o) { o[k] = f.o[k]; } }
      var prev = cur;
      var L = Object.assign({}, cur.L || {});
      if (f.L) {
        for (var lk in f.L) { if (f.L[lk] === null) { delete L[lk]; } else { L[lk] = f.L[lk]; } }
      }
      cur = { o: o, m: f.m || cur.m, t: f.t || cur.t, h: f.h || cur.h, g: f.g || cur.g, L: L };
      cur.moves = [];
      if (i > 0 && f.o) {
        for (var id in f.o) {
          var a = prev.o[id], b = f.o[id];
          if (a && b && (a[5] & 1) && (b[5] & 1) && (a[0] !== b[0] || a[1] !== b[1])) {
            cur.moves.push([a[0], a[1], b[0], b[1], D.ops[id].p, D.ops[id].r]);
          }
        }
      }
      snaps.push(cur);
    }
    var svg = document.getElementById("board");
    var M = 0.6;
    svg.setAttribute("viewBox", [-M, -M, W + 2 * M, H + 2 * M].join(" "));
    function Y(y) { return H - y; }
    function pts(ring) { return ring.map(function (p) { return p[0] + "," + Y(p[1]); }).join(" "); }
    // The labels as placed in Python (engine/play/viewer_labels.py): each text is drawn
    // centred in its box, squeezed (textLength) when this browser's font draws it wider;
    // leader lines go in "under" (beneath the bases).
    var LS = D.label || { font: "sans-serif", pad: 0.05, line: 1.2 };
    var LCOL = { m: "#6b4e00" };
    svg.setAttribute("font-family", "\"" + LS.font + "\", Verdana, sans-serif");
    function drawLabels(L, g, under) {
      Object.keys(L).sort().forEach(function (key) {
        var l = L[key], fs = l[2], x0 = l[3], y0 = l[4], x1 = l[5], y1 = l[6];
        var colour = COL[l[1]] || LCOL[l[1]] || "#555";
        if (l.length > 7) {
          // A leader line from the base's edge to the label's nearest point.
          var bx = l[7], by = l[8], br = l[9];
          var nx = Math.min(Math.max(bx, x0), x1), ny = Math.min(Math.max(by, y0), y1);
          var dist = Math.hypot(nx - bx, ny - by);
          if (dist > br) {
            el("line", { x1: bx + (nx - bx) * br / dist, y1: Y(by + (ny - by) * br / dist),
              x2: nx, y2: Y(ny), stroke: colour, "stroke-width": 0.04, opacity: 0.7 }, under);
          }
        }
        var lines = String(l[0]).split("\n"), room = x1 - x0 - 2 * LS.pad;
        var t = el("text", { "font-size": fs, "text-anchor": "middle", fill: colour,
          "font-weight": "700", stroke: "#fff", "stroke-width": 0.09,
          "paint-order": "stroke", "dominant-baseline": "central" }, g);
        lines.forEach(function (line, i) {
          var span = el("tspan", { x: (x0 + x1) / 2,
            y: Y(y1 - LS.pad - (i + 0.5) * fs * LS.line) }, t);
          span.textContent = line;
          if (span.getComputedTextLength && span.getComputedTextLength() > room) {
            span.setAttribute("textLength", room);
            span.setAttribute("lengthAdjust", "spacingAndGlyphs");
          }
        });
      });
    }
    function draw(n) {
      var s = snaps[n], g = s.g, zones = g[7] || {};
      while (svg.firstChild) { svg.removeChild(svg.firstChild); }
      var defs = el("defs", {}, svg);
      ["A", "B"].forEach(function (p) {
        var mk = el("marker", { id: "arrow" + p, viewBox: "0 0 10 10", refX: 9, refY: 5,
          markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" }, defs);
        el("path", { d: "M0,0L10,5L0,10z", fill: COL[p] }, mk);
      });
      el("rect", { x: 0, y: 0, width: W, height: H, fill: "#f7f4ec" }, svg);
      Object.keys(B.zones).forEach(function (z) {
        var c = COL[zones[z]] || "#777";
        el("polygon", { points: pts(B.zones[z]), fill: c, opacity: 0.13 }, svg);
      });
      Object.keys(B.territories).forEach(function (z) {
        var c = COL[zones[z]] || "#777";
        el("polygon", { points: pts(B.territories[z]), fill: "none", stroke: c,
          "stroke-width": 0.06, "stroke-dasharray": "0.3 0.2", opacity: 0.8 }, svg);
      });
      B.parts.forEach(function (p) {
        var c = (p.oc !== undefined && s.h.indexOf(p.f) >= 0) ? p.oc : p.c;
        el("polygon", { points: pts(p.p), fill: B.styles[c][1], stroke: "#1d1d1d",
          "stroke-width": 0.035 }, svg);
      });
      B.heights.forEach(function (hp) {
        var t = el("text", { x: hp[0], y: Y(hp[1]) + 0.12, "font-size": 0.34,
          "text-anchor": "middle", fill: "#000", stroke: "#fff", "stroke-width": 0.07,
          "paint-order": "stroke" }, svg);
        t.textContent = hp[2] + "\"";
      });
      el("rect", { x: 0, y: 0, width: W, height: H, fill: "none", stroke: "#000",
        "stroke-width": 0.08 }, svg);
      s.m.forEach(function (m) {
        var r = B.objectives[m[0]] || 0.787;
        el("circle", { cx: m[1], cy: Y(m[2]), r: r, fill: "#fff6d5", stroke: "#b8860b",
          "stroke-width": 0.1 }, svg);
        el("circle", { cx: m[1], cy: Y(m[2]), r: r * 0.3, fill: "#b8860b" }, svg);
        if (m[3]) {
          el("circle", { cx: m[1], cy: Y(m[2]), r: r + 0.13, fill: "none", stroke: COL[m[3]],
            "stroke-width": 0.16 }, svg);
        }
      });
      s.t.forEach(function (t) {
        var r = 0.3937, c = COL[t[1]] || "#555";
        el("circle", { cx: t[2], cy: Y(t[3]), r: r, fill: c, opacity: 0.75, stroke: "#fff",
          "stroke-width": 0.06, "stroke-dasharray": t[4] ? "0.1 0.08" : "none" }, svg);
      });
      var leaders = el("g", {}, svg);
      s.moves.forEach(function (mv) {
        // From where it stood to the edge of its base where it stands now.
        var len = Math.hypot(mv[2] - mv[0], mv[3] - mv[1]), k = Math.max(0, len - mv[5]) / len;
        var ex = mv[0] + (mv[2] - mv[0]) * k, ey = mv[1] + (mv[3] - mv[1]) * k;
        el("circle", { cx: mv[0], cy: Y(mv[1]), r: mv[5], fill: "none", stroke: COL[mv[4]],
          "stroke-width": 0.04, "stroke-dasharray": "0.12 0.1", opacity: 0.7 }, svg);
        el("line", { x1: mv[0], y1: Y(mv[1]), x2: ex, y2: Y(ey), stroke: COL[mv[4]],
          "stroke-width": 0.07, "stroke-dasharray": "0.25 0.12",
          "marker-end": "url(#arrow" + mv[4] + ")" }, svg);
      });
      Object.keys(s.o).forEach(function (id) {
        var o = s.o[id], info = D.ops[id], c = COL[info.p] || "#555", fl = o[5];
        if (fl & 4) {
          if (!(o[0] || o[1])) { return; }
          el("circle", { cx: o[0], cy: Y(o[1]), r: info.r, fill: c, opacity: 0.22 }, svg);
          var d = info.r * 0.62;
          el("path", { d: "M" + (o[0] - d) + "," + Y(o[1] - d) + "L" + (o[0] + d) + "," +
            Y(o[1] + d) + "M" + (o[0] - d) + "," + Y(o[1] + d) + "L" + (o[0] + d) + "," +
            Y(o[1] - d),
            stroke: c, "stroke-width": 0.1, opacity: 0.8 }, svg);
          return;
        }
        if (!(fl & 1)) { return; }
        el("circle", { cx: o[0], cy: Y(o[1]), r: info.r, fill: c, opacity: (fl & 8) ? 0.5 : 0.95,
          stroke: 2 * o[3] < info.w ? "#111" : "#fff",
          "stroke-width": 2 * o[3] < info.w ? 0.11 : 0.05 }, svg);
        var t = el("text", { x: o[0], y: Y(o[1]) + 0.15, "font-size": 0.42, "text-anchor": "middle",
          fill: "#fff", "font-weight": "700" }, svg);
        t.textContent = o[4];
      });
      drawLabels(s.L, el("g", {}, svg), leaders);
    }
    function panel(n) {
      var f = frames[n], s = snaps[n], g = s.g;
      var st = document.getElementById("status");
      st.textContent = "";
      var when = g[8] ? "battle over: " + g[8] : (g[0] ? "turning point " + g[0] : "set-up");
      h("b", when, null, st);
      st.appendChild(document.createTextNode(" \u00b7 " + (g[1] || "") + " \u00b7 initiative " +
        (g[2] || "-") + " \u00b7 VP A " + g[3] + " \u2013 B " + g[4] + " \u00b7 CP A " + g[5] +
        " \u2013 B " + g[6]));
      document.getElementById("steplabel").textContent = f.l;
      document.getElementById("actions").textContent = (f.x || []).join("\n");
      var dice = document.getElementById("dice");
      dice.textContent = "";
      (f.d || []).forEach(function (roll) {
        var r = h("span", null, "roll", dice);
        roll.forEach(function (v) {
          h("span", v, "die" + (v === 6 ? " six" : v === 1 ? " one" : ""), r);
        });
      });
      var log = document.getElementById("log");
      log.textContent = "";
      (f.n || []).forEach(function (line) {
        var li = h("li", line[0], null, log);
        if (line[1]) { h("span", "\u00a7 " + line[1], "sec", li); }
      });
      if (n === 0 && D.rules && D.rules.length) {
        var li = h("li", "Rules this scenario settles:", null, log);
        h("span", "\u00a7 " + D.rules.join(", "), "sec", li);
      }
      var tb = document.getElementById("ops");
      tb.textContent = "";
      Object.keys(s.o).sort(function (a, b) {
        return a.localeCompare(b, "en", { numeric: true });
      }).forEach(function (id) {
        var o = s.o[id], info = D.ops[id], fl = o[5];
        var cls = (fl & 4) ? "out" : (fl & 8) ? "exp" : "";
        if (!(fl & 5)) { cls = "exp"; }
        var tr = h("tr", null, cls, tb);
        h("td", id, "p" + info.p, tr);
        h("td", info.n, null, tr);
        h("td", o[3] + "/" + info.w, null, tr);
        h("td", (fl & 4) ? "incapacitated" : !(fl & 1) ? "not on the killzone" :
          (o[4] === "E" ? "engage" : "conceal") + ((fl & 8) ? ", expended" : ""), null, tr);
      });
    }
    var slider = document.getElementById("slider");
    slider.max = String(frames.length - 1);
    var at = 0, timer = null;
    function show(n, fromHash) {
      n = Math.max(0, Math.min(frames.length - 1, n | 0));
      at = n;
      slider.value = String(n);
      document.getElementById("counter").textContent = "frame " + n + " / " + (frames.length - 1);
      draw(n);
      panel(n);
      if (!fromHash && history.replaceState) { history.replaceState(null, "", "#step=" + n); }
      document.body.setAttribute("data-step", String(n));
      if (document.body.getAttribute("data-status") !== "error") {
        document.body.setAttribute("data-status", "ok");
      }
    }
    function fromHash() {
      var m = /step=(\d+)/.exec(location.hash || "");
      return m ? parseInt(m[1], 10) : 0;
    }
    function play() {
      if (timer) {
        clearInterval(timer);
        timer = null;
        document.getElementById("play").textContent = "play";
        return;
      }
      document.getElementById("play").textContent = "pause";
      timer = setInterval(function () {
        if (at >= frames.length - 1) { play(); return; }
        show(at + 1);
      }, 600);
    }
    document.getElementById("first").onclick = function () { show(0); };
    document.getElementById("prev").onclick = function () { show(at - 1); };
    document.getElementById("next").onclick = function () { show(at + 1); };
    document.getElementById("last").onclick = function () { show(frames.length - 1); };
    document.getElementById("play").onclick = play;
    slider.oninput = function () { show(parseInt(slider.value, 10)); };
    document.addEventListener("keydown", function (e) {
      if (e.target && e.target.tagName === "INPUT") { return; }
      if (e.key === "ArrowRight") { show(at + 1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { show(at - 1); e.preventDefault(); }
      else if (e.key === "Home") { show(0); e.preventDefault(); }
      else if (e.key === "End") { show(frames.length - 1); e.preventDefault(); }
      else if (e.key === " ") { play(); e.preventDefault(); }
    });
    window.addEventListener("hashchange", function () { show(fromHash(), true); });
    var title = D.players.A.team + " (A) v " + D.players.B.team + " (B) on " + B.name;
    document.getElementById("title").textContent = title;
    show(fromHash(), true);
  } catch (e) {
    fail("error: " + (e && e.message ? e.message : String(e)));
  }
})();
"""

PAGE = (
    """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy"
 content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>{{TITLE}}</title>
<style>"""
    + _STYLE
    + """</style>
</head>
<body data-status="loading">
<header><h1 id="title">{{TITLE}}</h1><div id="status"></div></header>
<pre id="errors" hidden></pre>
<main>
<div id="boardwrap"><svg id="board" xmlns="http://www.w3.org/2000/svg" role="img"
 aria-label="the killzone"></svg></div>
<aside>
<div id="steplabel"></div>
<div id="actions"></div>
<div id="dice"></div>
<ol id="log"></ol>
<table><thead><tr><th>Operative</th><th></th><th>W</th><th>State</th></tr></thead>
<tbody id="ops"></tbody></table>
</aside>
</main>
<nav>
<button id="first" title="first step (Home)">|&#x25C0;</button>
<button id="prev" title="previous step (Left)">&#x25C0;</button>
<button id="play" title="play or pause (Space)">play</button>
<button id="next" title="next step (Right)">&#x25B6;</button>
<button id="last" title="last step (End)">&#x25B6;|</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
<span id="counter"></span>
</nav>
<script id="data" type="application/json">{{DATA}}</script>
<script>"""
    + _SCRIPT
    + """</script>
</body>
</html>
"""
)
