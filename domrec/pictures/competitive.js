/* competitive.py's draw for the replay page: the line of play as a snake, from its scene
   ({line: [[a, b], ...], hot}). */
(function (D) {
  "use strict";
  var UNIT = 24, ROW_WIDTH = 640;

  function snake(halves, last, parent, unit, rowWidth) {
    var rows = [[]], width = 0;
    halves.forEach(function (h, i) {
      var w = h[0] === h[1] ? unit : 2 * unit;
      if (rows[rows.length - 1].length && width + w > rowWidth) { rows.push([]); width = 0; }
      rows[rows.length - 1].push([i, h[0], h[1]]);
      width += w + 2;
    });
    var rowH = 2 * unit + 8, widest = 0;
    rows.forEach(function (row, r) {
      var forward = r % 2 === 0;
      var used = row.reduce(function (sum, t) { return sum + (t[1] === t[2] ? unit : 2 * unit) + 2; }, 0) - 2;
      widest = Math.max(widest, used);
      var x = forward ? 0 : rows.length > 1 ? rowWidth - used : 0;
      var order = forward ? row : row.slice().reverse();
      order.forEach(function (t) {
        var i = t[0], a = t[1], b = t[2], dbl = a === b;
        var y = r * rowH + (dbl ? 0 : unit / 2);
        D.tiles.tile(parent, forward ? a : b, forward ? b : a, x, y, unit, {
          vertical: dbl, fill: i === last ? D.tiles.LAST : "#fdfaf2", css: i === last ? "last" : "",
          label: D.frame.say("tile %(n)s of the line: %(tile)s", {n: i + 1, tile: a + "-" + b})});
        x += (dbl ? unit : 2 * unit) + 2;
      });
    });
    width = rows.length > 1 ? rowWidth : widest;
    return [Math.max(width, 2 * unit), rows.length * rowH - 8];
  }

  D.games.competitive = D.forRoom(function (scene, room, scale) {
    var line = scene.line;
    var group = D.element("g", [["class", "line"]]);
    if (!line.length) {
      D.text(group, 0, 20, D.frame.say("The line is empty: the lead is still to be made."), [["font-size", D.legible(14, scale)],
             ["fill", "#fff"]]);
      return {element: group, width: 330, height: 28, notes: []};
    }
    var turn = room === null ? ROW_WIDTH : Math.max(2 * UNIT, Math.min(ROW_WIDTH, room));
    var size = snake(line, scene.hot, group, UNIT, turn);
    var ends = {tiles: D.frame.tiles(line.length), a: line[0][0], b: line[line.length - 1][1]};
    return {element: group, width: size[0], height: size[1],
            notes: [D.frame.say("The line: %(tiles)s, open ends: %(a)s and %(b)s.", ends)]};
  });
})(domrecPictures);
