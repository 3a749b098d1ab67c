/* castlerock.py's draw for the replay page: the row, the captured panels and the boneyard, from
   its scene ({row, seats, captured: {seat: tiles}, bone, just: ["placed"] | ["took", seat, count] |
   ["drew", seat, tile] | null, numerals: true for a set beyond nine}). */
(function (D) {
  "use strict";
  var WIDTH = 620, UNIT = 22, GAP = 4, LINE_GAP = 10, WALL = 8, SMALL = 13, SMALL_GAP = 2, PANEL_GAP = 8;
  var PANEL_PAD = 6, COLUMNS = 2, TEXT = "#fff", PANEL = "#245633", WALL_COLOUR = "#9e9e9e";
  var T = D.tiles;

  var say = D.frame.say;

  function row(parent, tiles, last, top, wrap, unit) {
    var group = D.sub(parent, "g", [["class", "row"], ["data-tiles", tiles.length]]);
    var step = 2 * unit + GAP;
    var perLine = Math.max(1, D.floorDiv(wrap - WALL - GAP - unit + GAP, step));
    D.sub(group, "rect", [["class", "blocked-end"], ["x", 0], ["y", top], ["width", WALL], ["height", unit], ["rx", 2],
                          ["fill", WALL_COLOUR], ["stroke", "#555"]]);
    var slots = tiles.length + 1, lines = Math.ceil(slots / perLine);
    for (var i = 0; i < slots; i++) {
      var line = Math.floor(i / perLine), col = i % perLine;
      var x = WALL + GAP + col * step, y = top + line * (unit + LINE_GAP);
      if (i === tiles.length) {
        var slot = D.sub(group, "rect", [["class", "open-end"], ["x", x], ["y", y], ["width", 2 * unit], ["height", unit],
                                         ["rx", unit * 0.14], ["fill", "none"], ["stroke", TEXT], ["stroke-width", 1.2],
                                         ["stroke-dasharray", "4 3"]]);
        D.title(slot, say("the open end: the next tile is placed here"));
        continue;
      }
      var t = tiles[i];
      var where = say(i === 0 ? "the blocked end" : i === tiles.length - 1 ? "the open end" : "place %(n)s", {n: i + 1});
      T.tile(group, t[0], t[1], x, y, unit, {fill: i === last ? T.LAST : T.FACE, css: i === last ? "last" : "",
             label: say("row, %(where)s (%(n)s of %(n2)s): %(tile)s", {where: where, n: i + 1, n2: tiles.length,
                                                                      tile: t[0] + "-" + t[1]})});
    }
    return lines * (unit + LINE_GAP) - LINE_GAP;
  }

  function panel(parent, seat, taken, fresh, x, y, width, scale, small) {
    var group = D.sub(parent, "g", [["class", "captured"], ["data-seat", seat], ["data-tiles", taken.length]]);
    var label = say(fresh ? "%(seat)s captured %(n)s (+%(n2)s now)" : "%(seat)s captured %(n)s",
                    {seat: seat, n: taken.length, n2: fresh});
    D.text(group, x + PANEL_PAD, y + PANEL_PAD + 11, label, [["font-size", D.legible(12, scale)], ["fill", TEXT],
           ["font-weight", fresh ? "bold" : "normal"], ["class", "captured-label"]]);
    var step = 2 * small + SMALL_GAP;
    var perLine = Math.max(1, D.floorDiv(width - 2 * PANEL_PAD + SMALL_GAP, step));
    var top = y + PANEL_PAD + 18;
    taken.forEach(function (t, i) {
      var line = Math.floor(i / perLine), col = i % perLine, isNew = i >= taken.length - fresh;
      T.tile(group, t[0], t[1], x + PANEL_PAD + col * step, top + line * (small + SMALL_GAP), small, {
        fill: isNew ? T.LAST : T.MARKED, css: isNew ? "last" : "taken",
        label: say(isNew ? "captured by %(seat)s: %(tile)s (just taken)" : "captured by %(seat)s: %(tile)s",
                   {seat: seat, tile: t[0] + "-" + t[1]})});
    });
    var lines = Math.ceil(taken.length / perLine);
    return [group, top - y + lines * (small + SMALL_GAP) + PANEL_PAD - (lines ? SMALL_GAP : 0)];
  }

  D.games["castle-rock"] = D.forRoom(function (scene, room, scale) {
    var tiles = scene.row, seats = scene.seats, just = scene.just || [null, null, null];
    var group = D.element("g", [["class", "castle-rock"]]);
    var head = tiles.length ?
      say("The row: %(tiles)s, blocked end first (\u22121 each to every player at the end)", {tiles: D.frame.tiles(tiles.length)}) :
      say("The row is empty: the next tile placed starts it");
    var wide = room === null ? WIDTH : Math.min(WIDTH, room), notes = room === null ? [] : [head], y = 0;
    var unit = scene.numerals ? T.numeralHalf(UNIT, scale) : UNIT;
    var small = scene.numerals ? T.numeralHalf(SMALL, scale) : SMALL;
    if (room === null) {
      D.text(group, 0, 14, head, [["font-size", D.legible(13, scale)], ["fill", TEXT], ["class", "row-label"]]);
      y = 24;
    }
    y += row(group, tiles, just[0] === "placed" ? tiles.length - 1 : null, y, wide, unit) + 16;
    var taker = just[0] === "took" ? just[1] : null, fresh = just[0] === "took" ? just[2] : 0;
    var width = (wide - PANEL_GAP * (COLUMNS - 1)) / COLUMNS;
    for (var start = 0; start < seats.length; start += COLUMNS) {
      var made = seats.slice(start, start + COLUMNS).map(function (seat, k) {
        var x = k * (width + PANEL_GAP);
        var frame = D.sub(group, "rect", [["class", "panel"], ["x", x], ["y", y], ["width", width], ["height", 0],
                                          ["rx", 6], ["fill", PANEL]]);
        var drawn = panel(group, seat, scene.captured[seat], seat === taker ? fresh : 0, x, y, width, scale, small);
        return [frame, drawn[1]];
      });
      var tallest = Math.max.apply(null, made.map(function (m) { return m[1]; }));
      made.forEach(function (m) {
        m[0].setAttribute("height", D.fixed(tallest, 2).replace(/0+$/, "").replace(/\.$/, ""));
      });
      y += tallest + PANEL_GAP;
    }
    var bone = scene.bone;
    var pile = D.sub(group, "g", [["class", "boneyard"], ["data-tiles", bone]]);
    y += 4;
    var words;
    if (bone) {
      for (var k = 0; k < Math.min(3, bone); k++) {
        T.back(pile, k * 4, y + k * 2, 10, {label: say("the boneyard: %(tiles)s", {tiles: D.frame.tiles(bone)})});
      }
      words = say("Boneyard: %(tiles)s to draw", {tiles: D.frame.tiles(bone)});
    } else {
      words = say("Boneyard: empty");
    }
    if (just[0] === "drew") {
      var drew = say("%(seat)s just drew %(tile)s (now in their rack)", {seat: just[1], tile: just[2]});
      if (room === null) { words += " · " + drew; } else { notes.push(drew + "."); }
    }
    D.text(pile, bone ? 30 : 0, y + 16, words, [["font-size", D.legible(12, scale)], ["fill", TEXT],
           ["class", "boneyard-label"]]);
    return {element: group, width: wide, height: y + 26, notes: notes};
  });
})(domrecPictures);
