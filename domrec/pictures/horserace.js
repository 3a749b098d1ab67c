/* horserace.py's draw for the replay page: the layout where horserace.py's scene put it
   ({tiles: [[x, y, vertical, first, second, words, spinner], ...] in grid cells, last, links,
   marks, left, top, width, height, notes}); the placing itself is done once, in Python. */
(function (D) {
  "use strict";
  var CELL = 12, DISC = "#ffffff", RING = "#e8f5e9";
  var T = D.tiles;

  function mark(parent, m, cx, cy) {
    var count = m[2], label = m[3], node;
    if (count === null) {
      node = D.sub(parent, "g", [["class", "free-place"]]);
      D.title(node, label);
      D.sub(node, "circle", [["cx", cx], ["cy", cy], ["r", CELL * 0.55], ["fill", "none"], ["stroke", RING],
                             ["stroke-width", 1.6], ["stroke-dasharray", "3 2"]]);
      return;
    }
    node = D.sub(parent, "g", [["class", "open-end"], ["data-count", count]]);
    D.title(node, label);
    D.sub(node, "circle", [["cx", cx], ["cy", cy], ["r", CELL * 0.8], ["fill", DISC], ["stroke", T.INK],
                           ["stroke-width", 1]]);
    D.text(node, cx, cy + CELL * 0.36, String(count), [["class", "count"], ["text-anchor", "middle"],
           ["font-size", count < 10 ? CELL : CELL * 0.85], ["font-weight", "bold"], ["fill", T.INK]]);
  }

  D.games["horse-race"] = function (scene) {
    var group = D.element("g", [["class", "layout"]]);
    if (!scene.tiles.length) {
      D.text(group, 0, 20, "The layout is empty: the lead is still to be set.", [["font-size", 14], ["fill", "#fff"]]);
      return {element: group, width: 360, height: 28, notes: scene.notes};
    }
    var left = scene.left, top = scene.top;
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
             label: t[5] + (isLast ? " (the last tile set)" : ""), css: css});
    });
    scene.marks.forEach(function (m) {
      var xy = px(m[0], m[1]);
      mark(group, m, xy[0], xy[1]);
    });
    return {element: group, width: scene.width, height: scene.height, notes: scene.notes};
  };
})(domrecPictures);
