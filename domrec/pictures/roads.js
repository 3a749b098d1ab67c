/* roads.py's draw for the replay page: the dice, each side's roads (bridges, road-blocks) and the
   piles, from its scene ({dice, total, faded, words, four, sides, roads: {side: [road]}, hot, seats,
   piles}; a road is {name, side, length, blocked, joined, starter, spans, block, bridge}). */
(function (D) {
  "use strict";
  var UNIT = 24, STEP = 2 * UNIT + 2, LABEL_W = 96, ROW_GAP = 12, BRIDGE = 0.75 * UNIT, BLOCK = 0.7 * UNIT;
  var DIE = 30, PILE_UNIT = 16, WHITE = "#fff", PALE = "#dcefe0";
  var T = D.tiles;
  var say = D.frame.say;

  function die(parent, value, x, y, faded) {
    var node = D.sub(parent, "g", [["class", "die"], ["data-value", value], ["opacity", faded ? "0.55" : null]]);
    D.sub(node, "rect", [["x", x], ["y", y], ["width", DIE], ["height", DIE], ["rx", DIE * 0.18], ["fill", WHITE],
                         ["stroke", T.INK], ["stroke-width", 1.2]]);
    var step = DIE / 4;
    (T.PIPS[value] || []).forEach(function (p) {
      D.sub(node, "circle", [["class", "pip"], ["cx", x + step * (p[0] + 1)], ["cy", y + step * (p[1] + 1)],
                             ["r", DIE * 0.08], ["fill", T.INK]]);
    });
  }

  function drawDice(group, scene, scale, wide) {
    var dice = D.sub(group, "g", [["class", "dice"], ["data-total", scene.dice ? scene.total : null]]);
    var x = 0;
    if (scene.dice !== null) {
      if (scene.faded) { dice.setAttribute("class", "dice unused"); }
      scene.dice.forEach(function (value) { die(dice, value, x, 0, scene.faded); x += DIE + 6; });
      D.text(dice, x + 4, 20, "= " + scene.total, [["font-size", D.legible(18, scale)], ["font-weight", "bold"],
             ["fill", WHITE], ["class", "total"]]);
      x += 56;
    }
    if (!wide) { return x; }
    var words = D.frame.word(scene.words);
    D.text(dice, x, 20, words, [["font-size", D.legible(13, scale)], ["fill", WHITE], ["class", "dice-words"]]);
    return x + 6.6 * D.len(words);
  }

  function tile(parent, a, b, x, y, size, label, css, last, vertical, fill) {
    T.tile(parent, a, b, x, y, size, {vertical: !!vertical, fill: last ? T.LAST : fill || T.FACE,
                                      css: last ? css + " last" : css, label: label});
  }

  function named(a, b) { return Math.max(a, b) + "-" + Math.min(a, b); }

  function halfX(road, span, half) {
    var out = road.spans[span - 1][1];
    return span * STEP + (half === out ? 1.5 * UNIT : 0.5 * UNIT);
  }

  function labelX(size, name) { return size * (0.75 * D.len(name) + 0.6); }

  function drawRoad(parent, road, x, y, hot, scale, label) {
    var kind = hot ? hot[0] : null, target = hot ? hot[1] : null;
    var mine = kind !== "bridge" && target !== null && target === road.name;
    var name = road.name;
    var length = say("length %(n)s", {n: road.length}), to = road.joined !== null ? D.clip(road.joined, 20) : null;
    var details = road.blocked && to !== null ? say("length %(n)s, blocked, joined to %(road)s", {n: road.length, road: to})
      : road.blocked ? say("length %(n)s, blocked", {n: road.length})
      : to !== null ? say("length %(n)s, joined to %(road)s", {n: road.length, road: to}) : length;
    var group = D.sub(parent, "g", [["class", "road"], ["data-road", name], ["data-side", road.side],
                                    ["data-length", road.length], ["data-spans", road.spans.length],
                                    ["data-blocked", road.blocked ? "yes" : "no"], ["data-joined", road.joined]]);
    D.title(group, say("road %(road)s of %(side)s: %(details)s", {road: D.clip(name, 30), side: road.side,
                                                                  details: details}));
    var short = road.blocked ? say("length %(n)s, blocked", {n: road.length})
      : road.joined ? say("length %(n)s, joined", {n: road.length}) : length;
    var size = D.legible(13, scale), small = D.legible(9.5, scale);
    var at = label === null ? [0, y + size - 2, 0, y + size + small - 1] : [0, label, labelX(size, D.clip(name, 8)), label];
    D.text(group, at[0], at[1], D.clip(name, 8), [["font-size", size], ["font-weight", "bold"], ["fill", WHITE],
           ["class", "road-name"]]);
    D.text(group, at[2], at[3], label === null ? length : short,
           [["font-size", small], ["fill", PALE], ["class", "road-details"]]);
    var other = road.starter[0], facing = road.starter[1];
    tile(group, other, facing, x, y, UNIT, say("starter %(tile)s of %(road)s, facing %(n)s",
         {tile: named(other, facing), road: D.clip(name, 30), n: facing}), "starter", mine && kind === "starter");
    var cx = x + STEP, count = road.spans.length;
    road.spans.forEach(function (s, k) {
      var i = k + 1;
      tile(group, s[0], s[1], cx, y, UNIT, say("span %(n)s of %(road)s: %(tile)s", {n: i, road: D.clip(name, 30),
           tile: named(s[0], s[1])}), "span",
           mine && kind === "span" && i === count);
      cx += STEP;
    });
    var end = cx - 2;
    if (road.block !== null) {
      tile(group, road.block[0], road.block[1], end + 4, y + UNIT / 2 - BLOCK, BLOCK, say("road-block %(tile)s on %(road)s",
           {tile: road.block[0] + "-" + road.block[1], road: D.clip(name, 30)}), "block", mine && kind === "block", true, T.MARKED);
      end += 4 + BLOCK;
    }
    return end;
  }

  function drawSide(parent, scene, side, y, scale, wide) {
    var band = D.sub(parent, "g", [["class", "side"], ["data-side", side]]);
    var roads = scene.roads[side], hot = scene.hot;
    var byName = new Map();
    scene.sides.forEach(function (s) { scene.roads[s].forEach(function (r) { byName.set(r.name, r); }); });
    var heading = scene.four ? say("%(side)s roads (%(seat)s and %(seat2)s)", {side: side, seat: Array.from(side)[0],
                                                                             seat2: Array.from(side)[1]}) :
      say("%(side)s's roads", {side: side});
    heading = roads.length ? say("%(heading)s: %(n)s", {heading: heading, n: roads.length})
      : say("%(heading)s: none yet", {heading: heading});
    D.text(band, 0, y + 14, heading, [["font-size", D.legible(14, scale)], ["font-weight", "bold"], ["fill", WHITE],
           ["class", "side-heading"]]);
    y += wide ? 22 : D.legible(14, scale) + 8;
    var width = 7.5 * D.len(heading);
    var left = wide ? LABEL_W : 0, line = wide ? 0 : D.legible(13, scale) + 5;
    var placed = new Set();
    roads.forEach(function (road) {
      if (placed.has(road.name)) { return; }
      placed.add(road.name);
      var partner = road.joined !== null && byName.has(road.joined) ? byName.get(road.joined) : null;
      if (partner === null || road.bridge === null || partner.bridge === null) {
        width = Math.max(width, drawRoad(band, road, left, y + line, hot, scale, wide ? null : y + line - 5));
        y += line + UNIT + ROW_GAP;
        return;
      }
      placed.add(partner.name);
      var ha = halfX(road, road.bridge[0], road.bridge[1]), hb = halfX(partner, partner.bridge[0], partner.bridge[1]);
      var shift = Math.min(ha, hb);
      var xa = left + hb - shift, xb = left + ha - shift;
      var pair = D.sub(band, "g", [["class", "joined"], ["data-roads", road.name + " " + partner.name]]);
      y += line;
      width = Math.max(width, drawRoad(pair, road, xa, y, hot, scale, wide ? null : y - 5));
      var below = y + UNIT + 2 * BRIDGE;
      var kind = hot ? hot[0] : null, target = hot ? hot[1] : null;
      var a = road.bridge, b = partner.bridge;
      var bridge = D.sub(pair, "g", [["class", "bridge"], ["data-join", road.name + ":" + a[0] + ":" + a[1] + " " +
                                      partner.name + ":" + b[0] + ":" + b[1]]]);
      var both = kind === "bridge" && new Set(target).size === new Set([road.name, partner.name]).size &&
        [road.name, partner.name].every(function (n) { return target.indexOf(n) >= 0; });
      tile(bridge, 0, 0, xa + ha - BRIDGE / 2, y + UNIT, BRIDGE,
           say("bridge 0-0 joining the %(n)s of span %(span)s of %(road)s to the %(n2)s of span %(span2)s of %(road2)s",
               {n: a[1], span: a[0], road: D.clip(road.name, 30), n2: b[1], span2: b[0], road2: D.clip(partner.name, 30)}),
           "bridge-tile", both, true);
      width = Math.max(width, drawRoad(pair, partner, xb, below, hot, scale,
                                            wide ? null : below + UNIT + line - 3));
      y = below + UNIT + line + ROW_GAP;
    });
    return [width, y];
  }

  function drawPiles(parent, scene, y, scale, wide) {
    var group = D.sub(parent, "g", [["class", "piles"]]);
    D.text(group, 0, y + 14, say("Piles (next top-up first)"), [["font-size", D.legible(14, scale)], ["font-weight", "bold"],
           ["fill", WHITE], ["class", "side-heading"]]);
    y += wide ? 22 : D.legible(14, scale) + 8;
    var width = 180;
    scene.seats.forEach(function (seat) {
      var pile = Object.prototype.hasOwnProperty.call(scene.piles, seat) ? scene.piles[seat] : [];
      var row = D.sub(group, "g", [["class", "pile"], ["data-seat", seat], ["data-tiles", pile.length]]);
      var size = D.legible(13, scale);
      D.text(row, 0, wide ? y + 12 : y + size, D.clip(seat, 8), [["font-size", size], ["font-weight", "bold"],
             ["fill", WHITE], ["class", "pile-seat"]]);
      var x = LABEL_W;
      if (!wide) {
        x = pile.length ? 0 : labelX(size, D.clip(seat, 8));
        y += pile.length ? size + 4 : size - 12;
      }
      if (!pile.length) { D.text(row, x, y + 12, say("empty"), [["font-size", D.legible(12, scale)], ["fill", PALE]]); }
      pile.forEach(function (t, i) {
        if (t === null) {
          T.back(row, x, y, PILE_UNIT, {vertical: false,
                                        label: say("%(seat)s's pile, tile %(n)s: not known", {seat: seat, n: i + 1})});
        } else {
          T.tile(row, t[0], t[1], x, y, PILE_UNIT, {label: say("%(seat)s's pile, tile %(n)s: %(tile)s",
                                                               {seat: seat, n: i + 1, tile: t[0] + "-" + t[1]})});
        }
        x += 2 * PILE_UNIT + 3;
      });
      width = Math.max(width, x);
      y += PILE_UNIT + 6;
    });
    return [width, y];
  }

  function summary(scene) {
    return say("Roads: %(list)s.", {list: scene.sides.map(function (side) {
      var roads = scene.roads[side];
      var joined = Math.floor(roads.filter(function (r) { return r.joined !== null; }).length / 2);
      var blocked = roads.filter(function (r) { return r.block !== null; }).length;
      var bits = (joined ? [say(joined === 1 ? "%(n)s joined pair" : "%(n)s joined pairs", {n: joined})] : [])
        .concat(blocked ? [say("%(n)s blocked", {n: blocked})] : []);
      return side + " " + roads.length + (bits.length ? " (" + bits.join(", ") + ")" : "");
    }).join(" · ")});
  }

  D.games["domino-roads"] = D.forRoom(function (scene, room, scale) {
    var group = D.element("g", [["class", "roads"]]);
    var wide = room === null, width = drawDice(group, scene, scale, wide), y = DIE + 14, done;
    scene.sides.forEach(function (side) {
      done = drawSide(group, scene, side, y, scale, wide);
      width = Math.max(width, done[0]);
      y = done[1] + 6;
    });
    if (scene.piles) {
      done = drawPiles(group, scene, y, scale, wide);
      width = Math.max(width, done[0]);
      y = done[1];
    }
    return {element: group, width: Math.max(width, room === null ? 330 : 0), height: y,
            notes: room === null ? [summary(scene)] : [D.frame.word(scene.words), summary(scene)]};
  });
})(domrecPictures);
