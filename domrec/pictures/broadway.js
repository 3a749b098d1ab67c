/* broadway.py's draw for the replay page: the tableau on the record's grid, from its scene
   ({tiles: [[seat, x1, y1, x2, y2, pips1, pips2, matches, penalty], ...], matched, shown, lead,
   leader, sudden, points}). */
(function (D) {
  "use strict";
  var UNIT = 26, GUTTER = 26, AXIS_ROW = 18, SHOWN_TILE = 15, MATCHED = "#e65100", GRID = "#ffffff";
  var LABEL = "#e8f5e9", AXES = "N and S lay tiles east-west, E and W north-south";
  var COORDINATES = "Coordinates: x along the bottom, y up the left.";
  var T = D.tiles;

  function origin(cells) {
    var xs = cells.map(function (c) { return c[0]; }), ys = cells.map(function (c) { return c[1]; });
    return [Math.min.apply(null, xs) - 1, Math.max.apply(null, xs) + 1,
            Math.min.apply(null, ys) - 1, Math.max.apply(null, ys) + 1];
  }

  function grid(group, x0, x1, y0, y1, scale) {
    var cols = x1 - x0 + 1, rows = y1 - y0 + 1;
    var lines = D.sub(group, "g", [["class", "grid"], ["stroke", GRID], ["stroke-opacity", "0.18"], ["stroke-width", "1"]]);
    var i, j;
    for (i = 0; i < cols + 1; i++) {
      var x = GUTTER + i * UNIT;
      D.sub(lines, "line", [["x1", x], ["y1", 0], ["x2", x], ["y2", rows * UNIT]]);
    }
    for (j = 0; j < rows + 1; j++) {
      var y = j * UNIT;
      D.sub(lines, "line", [["x1", GUTTER], ["y1", y], ["x2", GUTTER + cols * UNIT], ["y2", y]]);
    }
    var labels = D.sub(group, "g", [["class", "coordinates"]]);
    var size = D.legible(10, scale), every = size <= 13 ? 1 : 2;
    for (i = 0; i < cols; i++) {
      if ((x0 + i) % every !== 0) { continue; }
      D.text(labels, GUTTER + (i + 0.5) * UNIT, rows * UNIT + 13, String(x0 + i), [["font-size", size], ["fill", LABEL],
             ["text-anchor", "middle"], ["class", "x"]]);
    }
    for (j = 0; j < rows; j++) {
      D.text(labels, GUTTER - 4, (j + 0.5) * UNIT + 4, String(y1 - j), [["font-size", size], ["fill", LABEL],
             ["text-anchor", "end"], ["class", "y"]]);
    }
  }

  function key(x, y) { return x + "," + y; }

  function tile(group, p, at, last) {
    var seat = p[0], fx = p[1], fy = p[2], sx = p[3], sy = p[4], firstPips = p[5], secondPips = p[6];
    var matches = p[7], penalty = p[8];
    var horizontal = fy === sy;
    var ahead = horizontal ? fx < sx : fy > sy;
    var c1 = [fx, fy], v1 = firstPips, v2 = secondPips;
    if (!ahead) { c1 = [sx, sy]; v1 = secondPips; v2 = firstPips; }
    var xy = at[key(c1[0], c1[1])];
    var css = [["last", last], ["penalty", penalty]].filter(function (w) { return w[1]; })
      .map(function (w) { return w[0]; }).join(" ");
    var fill = last ? T.LAST : penalty ? T.MARKED : T.FACE;
    var said = {seat: seat, tile: firstPips + "-" + secondPips, cells: "(" + fx + "," + fy + ")-(" + sx + "," + sy + ")",
                n: matches};
    var label = matches ? D.frame.say("%(seat)s laid %(tile)s at %(cells)s, %(n)s matched", said)
      : D.frame.say("%(seat)s laid %(tile)s at %(cells)s, the lead", said);
    if (penalty) { label = D.frame.say("%(label)s (penalty play)", {label: label}); }
    var node = T.tile(group, v1, v2, xy[0], xy[1], UNIT, {vertical: !horizontal, fill: fill, css: css, label: label});
    node.setAttribute("data-seat", seat);
    node.setAttribute("data-cells", fx + "," + fy + " " + sx + "," + sy);
  }

  function shown(group, rows, top, scale, beside) {
    if (!rows.length) { return [0, 0]; }
    var width = 0, y = top;
    rows.forEach(function (r) {
      var seat = r[0], words = D.frame.word(r[1]), tiles = r[2], kind = r[3], x = 0;
      var row = D.sub(group, "g", [["class", "exposed " + kind], ["data-seat", seat]]);
      if (beside) {
        D.text(row, 0, y + SHOWN_TILE * 0.5 + 5, words, [["font-size", D.legible(12, scale)], ["fill", LABEL]]);
        x = 7 * D.len(words) + 6;
      } else {
        var size = D.legible(12, scale);
        D.text(row, 0, y + size, words, [["font-size", size], ["fill", LABEL]]);
        y += size + 5;
      }
      tiles.forEach(function (t) {
        T.tile(row, t[0], t[1], x, y, SHOWN_TILE, {label: D.frame.say("%(seat)s's %(tile)s, face up",
                                                                        {seat: seat, tile: t[0] + "-" + t[1]})});
        x += 2 * SHOWN_TILE + 4;
      });
      width = Math.max(width, x);
      y += SHOWN_TILE + 8;
    });
    return [width, y - top];
  }

  function points(scene) {
    var said = {ns: scene.points.NS, ew: scene.points.EW, tile: scene.lead};
    return D.frame.say(scene.sudden ? "Points made in play this hand: NS %(ns)s · EW %(ew)s (built on %(tile)s; sudden death)."
                                    : "Points made in play this hand: NS %(ns)s · EW %(ew)s (built on %(tile)s).", said);
  }

  D.games.broadway = D.forRoom(function (scene, room, scale) {
    var group = D.element("g", [["class", "tableau-board"]]);
    var notes = [points(scene), D.frame.say(AXES + "."), D.frame.say(COORDINATES)];
    var placements = scene.tiles, size;
    if (!placements.length) {
      var empty = scene.leader ? D.frame.say("The tableau is empty: %(seat)s leads %(tile)s.", {seat: scene.leader, tile: scene.lead})
        : D.frame.say("The tableau is empty: the holder of %(tile)s leads it.", {tile: scene.lead});
      D.text(group, 0, 18, empty, [["font-size", D.legible(14, scale)], ["fill", "#fff"],
             ["class", "empty"]]);
      size = shown(group, scene.shown, 28 + 6, scale, room === null);
      return {element: group, width: Math.max(320, size[0]), height: 28 + (size[1] ? size[1] + 6 : 0), notes: notes};
    }
    var cells = [];
    placements.forEach(function (p) { cells.push([p[1], p[2]], [p[3], p[4]]); });
    var o = origin(cells), x0 = o[0], x1 = o[1], y0 = o[2], y1 = o[3];
    var at = {};
    cells.forEach(function (c) { at[key(c[0], c[1])] = [GUTTER + (c[0] - x0) * UNIT, (y1 - c[1]) * UNIT]; });
    grid(group, x0, x1, y0, y1, scale);
    var table = D.sub(group, "g", [["class", "tableau"]]);
    placements.forEach(function (p, i) { tile(table, p, at, i === placements.length - 1); });
    var rings = D.sub(group, "g", [["class", "matches"]]);
    scene.matched.forEach(function (c) {
      var xy = at[key(c[0], c[1])];
      var ring = D.sub(rings, "rect", [["class", "matched"], ["x", xy[0] + 1.5], ["y", xy[1] + 1.5], ["width", UNIT - 3],
                                       ["height", UNIT - 3], ["rx", 5], ["fill", "none"], ["stroke", MATCHED],
                                       ["stroke-width", 3]]);
      ring.setAttribute("data-cell", c[0] + "," + c[1]);
    });
    var gridW = GUTTER + (x1 - x0 + 1) * UNIT, gridH = (y1 - y0 + 1) * UNIT + AXIS_ROW;
    size = shown(group, scene.shown, gridH + 6, scale, room === null);
    notes.splice(1, 0, D.frame.say(scene.matched.length ? "Yellow: the last tile laid; orange rings: the halves it matched."
                                                          : "Yellow: the last tile laid."));
    if (placements.some(function (p) { return p[8]; })) {
      notes.splice(2, 0, D.frame.say("Tan: penalty plays (an exposed tile laid by an opponent)."));
    }
    return {element: group, width: Math.max(gridW, size[0]), height: gridH + (size[1] ? size[1] + 6 : 0), notes: notes};
  });
})(domrecPictures);
