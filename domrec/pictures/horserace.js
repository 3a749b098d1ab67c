/* horserace.py's draw for the replay page: the layout where horserace.py's scene put it
   ({tiles: [[x, y, vertical, first, second, words, spinner], ...] in grid cells, last, links,
   marks: [[x, y, count, kind, tile], ...], x0, y0, x1, y1, parts, count, pegs, stock}); the
   placing itself is done once, in Python. */
(function (D) {
  "use strict";
  var CELL = 12, DISC = "#ffffff", RING = "#e8f5e9", NOTE_CHARS = 90, NOTE_CHAR_WIDTH = 7.2;
  var T = D.tiles;
  var WORDS = {
    "end": "open end %(n)s of %(tile)s: counts %(n)s",
    "spinner": "%(tile)s is a spinner with a side free: it counts both halves, %(n)s",
    "side": "a free side of the spinner %(tile)s (counted with the spinner)",
    "spinner-end": "a free end of the spinner %(tile)s: it counts nothing until a tile is set on it"
  };
  var say = D.frame.say;

  function notes(scene) {
    var parts = scene.parts;
    var verdict = " = " + scene.count + " (" + D.frame.word(scene.pegs) + ").";
    var sums = parts.map(function (p) { return p[0] + " (" + p[1] + ")"; }).join(" + ") || "0";
    if (D.len(sums) > NOTE_CHARS - 24) { sums = parts.map(function (p) { return String(p[0]); }).join(" + "); }
    var sum = say("Count of the open ends: %(sums)s", {sums: sums}), count = [sum + verdict];
    if (D.len(count[0]) > NOTE_CHARS) { count = [sum, verdict.replace(/^\s+/, "")]; }
    var tiles = scene.tiles;
    var spinners = tiles.filter(function (t) { return t[6]; }).map(function (t) { return t[3] + "-" + t[4]; });
    var table = say("%(tiles)s on the table", {tiles: D.frame.tiles(tiles.length)}) +
      (spinners.length ? say(spinners.length === 1 ? "; spinner %(tiles)s" : "; spinners %(tiles)s",
                             {tiles: spinners.join(", ")}) : "") +
      say("; boneyard: %(tiles)s.", {tiles: D.frame.tiles(scene.stock)});
    var legend = say(scene.marks.some(function (m) { return m[2] === null; }) ?
      "Discs: open ends and what they count; rings: free spinner places (they add nothing)." :
      "Discs: open ends and what they count.");
    return count.concat([table, legend]);
  }

  function extent(scene, lines, room) {
    var left = scene.x0, top = scene.y0;
    var width = (scene.x1 - left) * CELL, height = (scene.y1 - top) * CELL;
    var wanted = Math.max.apply(null, lines.map(D.len)) * NOTE_CHAR_WIDTH - 24;
    if (width < wanted && room === null) { left -= (wanted - width) / 2 / CELL; width = wanted; }
    return [left, top, width, height];
  }

  function mark(parent, m, cx, cy, scale) {
    var count = m[2], label = say(WORDS[m[3]], {n: count, tile: m[4]}), node;
    if (count === null) {
      node = D.sub(parent, "g", [["class", "free-place"]]);
      D.title(node, label);
      D.sub(node, "circle", [["cx", cx], ["cy", cy], ["r", CELL * 0.55], ["fill", "none"], ["stroke", RING],
                             ["stroke-width", 1.6], ["stroke-dasharray", "3 2"]]);
      return;
    }
    node = D.sub(parent, "g", [["class", "open-end"], ["data-count", count]]);
    D.title(node, label);
    var size = D.legible(CELL, scale);
    D.sub(node, "circle", [["cx", cx], ["cy", cy], ["r", size * 0.8], ["fill", DISC], ["stroke", T.INK],
                           ["stroke-width", 1]]);
    D.text(node, cx, cy + size * 0.36, String(count), [["class", "count"], ["text-anchor", "middle"],
           ["font-size", count < 10 ? size : D.legible(CELL * 0.85, scale)], ["font-weight", "bold"], ["fill", T.INK]]);
  }

  D.games["horse-race"] = D.forRoom(function (scene, room, scale) {
    var group = D.element("g", [["class", "layout"]]);
    if (!scene.tiles.length) {
      D.text(group, 0, 20, say("The layout is empty: the lead is still to be set."), [["font-size", D.legible(14, scale)],
             ["fill", "#fff"]]);
      return {element: group, width: 360, height: 28,
              notes: [say("Boneyard: %(tiles)s.", {tiles: D.frame.tiles(scene.stock)})]};
    }
    var lines = notes(scene), box = extent(scene, lines, room), left = box[0], top = box[1];
    var px = function (x, y) { return [(x - left) * CELL, (y - top) * CELL]; };
    scene.links.forEach(function (l) {
      var a = px(l[0], l[1]), b = px(l[2], l[3]);
      D.sub(group, "line", [["class", "link"], ["x1", a[0]], ["y1", a[1]], ["x2", b[0]], ["y2", b[1]], ["stroke", "#fff"],
                            ["stroke-width", 2], ["stroke-dasharray", "4 3"]]);
    });
    scene.tiles.forEach(function (t, i) {
      var xy = px(t[0], t[1]), isLast = i === scene.last;
      var css = [t[6] ? "spinner" : "", isLast ? "last" : ""].filter(function (c) { return c; }).join(" ");
      T.tile(group, t[3], t[4], xy[0], xy[1], 2 * CELL, {vertical: t[2], fill: isLast ? T.LAST : T.FACE,
             label: isLast ? say("%(words)s (the last tile set)", {words: D.frame.word(t[5])}) : D.frame.word(t[5]), css: css});
    });
    scene.marks.forEach(function (m) {
      var xy = px(m[0], m[1]);
      mark(group, m, xy[0], xy[1], scale);
    });
    return {element: group, width: box[2], height: box[3], notes: lines};
  });
})(domrecPictures);
