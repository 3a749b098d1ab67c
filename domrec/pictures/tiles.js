/* tiles.py for the replay page: each tile face is drawn once, as a <symbol> in one hidden sprite,
   and every tile of every picture is a <use> of it (the tile's group keeps its class, its
   data-tile mark and its tooltip).  The face is tiles.py's drawing at (0, 0), the rectangle left
   without a fill so that the <use> gives it one (face, just played, set apart). */
(function (D) {
  "use strict";
  var PIPS = {
    0: [], 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
    4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
    6: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]],
    7: [[0, 0], [0, 1], [0, 2], [1, 1], [2, 0], [2, 1], [2, 2]],
    8: [[0, 0], [1, 0], [2, 0], [0, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
    9: [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [1, 2], [2, 2]]
  };
  var NUMERAL = 0.5;  /* a numeral's font size, as a part of its half's side */
  var FACE = "#fdfaf2", LAST = "#ffd54f", MARKED = "#f3e5d0", INK = "#222", BACK = "#37474f";
  var sprite = null, made = {};

  function defs() {
    if (!sprite) {
      var box = D.element("svg", [["width", 0], ["height", 0], ["aria-hidden", "true"], ["focusable", "false"],
                                  ["style", "position:absolute;width:0;height:0;overflow:hidden"]]);
      box.id = "domrec-tile-faces";
      sprite = D.sub(box, "defs");
      document.body.appendChild(box);
    }
    return sprite;
  }

  function half(parent, value, x, y, size) {
    var group = D.sub(parent, "g", [["class", "half"], ["data-value", value], ["fill", INK]]);
    if (PIPS.hasOwnProperty(value)) {
      var step = size / 4, r = size * 0.085;
      PIPS[value].forEach(function (p) {
        D.sub(group, "circle", [["cx", x + step * (p[0] + 1)], ["cy", y + step * (p[1] + 1)], ["r", r]]);
      });
    } else {
      D.text(group, x + size / 2, y + size * 0.68, String(value), [["class", "numeral"], ["text-anchor", "middle"],
             ["font-size", size * NUMERAL], ["font-weight", "bold"], ["fill", INK]]);
    }
  }

  function face(first, second, size, vertical) {
    var id = "dt-" + first + "-" + second + (vertical ? "v" : "h") + size;
    if (!made[id]) {
      var symbol = D.sub(defs(), "symbol", [["overflow", "visible"]]);
      symbol.id = id;
      var w = vertical ? size : 2 * size, h = vertical ? 2 * size : size, pad = Math.max(size * 0.04, 0.5);
      D.sub(symbol, "rect", [["x", pad], ["y", pad], ["width", w - 2 * pad], ["height", h - 2 * pad],
                             ["rx", size * 0.14], ["stroke", INK], ["stroke-width", Math.max(size * 0.04, 0.8)]]);
      if (vertical) {
        D.sub(symbol, "line", [["x1", size * 0.18], ["y1", size], ["x2", size * 0.82], ["y2", size], ["stroke", INK],
                               ["stroke-width", Math.max(size * 0.03, 0.6)]]);
        half(symbol, first, 0, 0, size);
        half(symbol, second, 0, size, size);
      } else {
        D.sub(symbol, "line", [["x1", size], ["y1", size * 0.18], ["x2", size], ["y2", size * 0.82], ["stroke", INK],
                               ["stroke-width", Math.max(size * 0.03, 0.6)]]);
        half(symbol, first, 0, 0, size);
        half(symbol, second, size, 0, size);
      }
      made[id] = true;
    }
    return id;
  }

  function back(size, vertical) {
    var id = "db-" + (vertical ? "v" : "h") + size;
    if (!made[id]) {
      var symbol = D.sub(defs(), "symbol", [["overflow", "visible"]]);
      symbol.id = id;
      var w = vertical ? size : 2 * size, h = vertical ? 2 * size : size, pad = Math.max(size * 0.04, 0.5);
      D.sub(symbol, "rect", [["x", pad], ["y", pad], ["width", w - 2 * pad], ["height", h - 2 * pad],
                             ["rx", size * 0.14], ["fill", BACK], ["stroke", INK],
                             ["stroke-width", Math.max(size * 0.04, 0.8)]]);
      made[id] = true;
    }
    return id;
  }

  /* The <use> of a face at (x, y): its place is written in full (the browser test rebuilds the
     tile from it with tiles.py and compares). */
  function use(parent, id, x, y, fill) {
    var node = D.sub(parent, "use", [["href", "#" + id]]);
    node.setAttribute("x", String(x));
    node.setAttribute("y", String(y));
    if (fill) { node.setAttribute("fill", fill); }
    return node;
  }

  /* tiles.draw_tile: options {vertical, fill, label, css}. */
  function tile(parent, first, second, x, y, size, options) {
    var o = options || {};
    var group = D.sub(parent, "g", [["class", ("tile " + (o.css || "")).trim()], ["data-tile", first + "-" + second]]);
    if (o.label) { D.title(group, o.label); }
    use(group, face(first, second, size, !!o.vertical), x, y, o.fill || FACE);
    return group;
  }

  /* tiles.draw_back: a tile face down (upright unless vertical is false). */
  function tileBack(parent, x, y, size, options) {
    var o = options || {};
    var group = D.sub(parent, "g", [["class", "tile-back"]]);
    if (o.label) { D.title(group, o.label); }
    use(group, back(size, o.vertical !== false), x, y, null);
    return group;
  }

  /* tiles.numeral_half: a half big enough for its numeral to show at least MIN_TEXT px on a picture
     drawn at ``scale`` (null: the desktop's, ``size`` itself). */
  function numeralHalf(size, scale) { return D.legible(size * NUMERAL, scale) / NUMERAL; }

  D.tiles = {PIPS: PIPS, FACE: FACE, LAST: LAST, MARKED: MARKED, INK: INK, BACK: BACK, tile: tile,
             back: tileBack, numeralHalf: numeralHalf};
})(domrecPictures);
