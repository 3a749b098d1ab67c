/* frame.py and Position.header_lines (positions.py) for the replay page: one position as a whole
   picture, the board in its frame (title, last move, scores, each seat's tiles), drawn as the
   module draws it.  ``draw`` takes a position as the page carries it (see replay.js):
   {title, hand, move, moves, names, last: {text, name, points}, scores, made, ended, turn, racks,
   hidden} and a function drawing its board ({element, width, height, notes}) with its game's script,
   its texts sized for a scale, and the width of the box the picture is shown in.  Ordered maps (racks, scores, names)
   are lists of [key, value] pairs. */
(function (D) {
  "use strict";
  var BOARD_MAX_WIDTH = 760, BOARD_MAX_HEIGHT = 620, RACK_TILE = 13, GAP = 3, MARGIN = 12, LINE = 20;
  var SIDE_WIDTH = 112, FELT = "#2e6b3f", TEXT = "#111", COMPASS = ["N", "E", "S", "W"];

  function lookup(pairs, key, missing) {
    for (var i = 0; i < pairs.length; i++) { if (pairs[i][0] === key) { return pairs[i][1]; } }
    return missing;
  }

  function headerLines(p) {
    var title = p.title + " · " + say("hand %(n)s", {n: p.hand}) + " · " +
      (p.move === 0 ? say("the deal") : say("move %(n)s of %(n2)s", {n: p.move, n2: p.moves}));
    if (p.ended !== null && p.ended !== undefined) { title += " · " + say("hand over (%(end)s)", {end: word(p.ended)}); }
    var last;
    if (!p.last) {
      last = p.turn ? say("Nothing played yet; %(seat)s to play", {seat: p.turn}) : say("Nothing played yet");
    } else {
      last = say("Last: %(move)s", {move: D.clip(p.last.text, 90)}) + (p.last.name ? " (" + D.clip(p.last.name, 24) + ")" : "");
      last += p.last.points ? say(", scoring %(n)s", {n: p.last.points}) : "";
    }
    var list = p.scores.map(function (s) { return s[0] + " " + s[1]; }).join(" · "), scores;
    if (p.made) {
      // (a hand's loss, Castle Rock's -2, is signed as it is: not "+-2")
      var made = p.made.filter(function (s) { return s[1]; }).map(function (s) { return s[0] + " " + (s[1] > 0 ? "+" : "") + s[1]; });
      scores = made.length ? say("Totals after the hand: %(list)s (this hand: %(list2)s)", {list: list, list2: made.join(", ")})
        : say("Totals after the hand: %(list)s (this hand: nothing scored)", {list: list});
    } else {
      scores = say("Scores: %(list)s", {list: list});
    }
    return [title, last, scores];
  }

  /* A sentence of the page in its language: ``pattern`` (English, with %(name)s places) as the
     page's words give it (replay_page.SCRIPT_PHRASES and PICTURE_PHRASES; none on an English page),
     filled in.  The game's scripts say every word of their pictures so. */
  var WORDS = new Map();
  function say(pattern, values) {
    return word(pattern).replace(/%\((\w+)\)s/g, function (all, name) { return String((values || {})[name]); });
  }
  /* A text the position itself holds (how a hand ended, a Horse Race tile's words, Domino Roads'
     dice): the page's words give it whole, made by the page from the engines' sentences
     (replay_page._scene_words), or it is shown as it is.  Never filled in: it may hold a seat's name. */
  function word(text) { return WORDS.has(text) ? WORDS.get(text) : text; }
  /* ``n`` tiles: "3 tiles", "1 tile". */
  function tileCount(n) { return say(n === 1 ? "%(n)s tile" : "%(n)s tiles", {n: n}); }
  function speak(words) { WORDS = new Map(Object.entries(words || {})); }

  /* A seat's label and its tiles (halves ``size`` px, RACK_TILE unless given) in rows no wider than
     ``width``, its words sized for a picture shown at ``shown`` (1 unless given): [group, width used, height]. */
  function rack(seat, name, tiles, hidden, width, toMove, size, shown) {
    size = size === undefined ? RACK_TILE : size;
    shown = shown === undefined ? 1 : shown;
    var big = D.legible(13, shown), small = D.legible(12, shown);
    var count = tiles.length + hidden;
    var group = D.element("g", [["class", "rack"], ["data-seat", seat], ["data-tiles", count]]);
    var who = name ? seat + ": " + name : seat;
    D.title(group, toMove ? say("%(who)s, to play", {who: who}) : who);
    var label = (toMove ? "\u25b6 " : "") + seat + " · " + tileCount(count);
    D.text(group, 0, big, label, [["font-size", big], ["fill", TEXT], ["font-weight", toMove ? "bold" : "normal"],
                                  ["class", "seat-label"]]);
    var shownName = name ? D.fitText(name, width, small) : "";
    D.text(group, 0, big + small + 4, shownName, [["font-size", small], ["fill", "#444"], ["class", "name"]]);
    var top = big + small + 11, step = size + GAP;
    var perRow = Math.max(1, D.floorDiv(width + GAP, step));
    tiles.forEach(function (t, i) {
      var row = Math.floor(i / perRow), col = i % perRow;
      D.tiles.tile(group, t[0], t[1], col * step, top + row * (2 * size + GAP), size, {vertical: true});
    });
    for (var i = tiles.length; i < count; i++) {
      var row = Math.floor(i / perRow), col = i % perRow;
      D.tiles.back(group, col * step, top + row * (2 * size + GAP), size,
                   {label: say("%(seat)s: a tile not shown", {seat: seat})});
    }
    var rows = count ? Math.max(1, Math.ceil(count / perRow)) : 0;
    var used = count ? Math.min(count, perRow) * step - GAP : 0;
    return [group, Math.min(width, Math.max(used, 7.2 * D.len(label), D.textWidth(shownName, small))), top + rows * (2 * size + GAP)];
  }

  function place(parent, child, x, y, scale) {
    var transform = "translate(" + D.fixed(x, 1) + "," + D.fixed(y, 1) + ")" +
      (scale !== undefined && scale !== 1 ? " scale(" + D.fixed(scale, 4) + ")" : "");
    child.setAttribute("transform", transform);
    parent.appendChild(child);
  }

  /* frame._fits: the scale the frame draws a board at. */
  function fits(board) {
    return Math.min(1, BOARD_MAX_WIDTH / Math.max(board.width, 1), BOARD_MAX_HEIGHT / Math.max(board.height, 1));
  }

  /* frame._width: the whole picture's width, the board drawn at ``scale`` (never the texts' sizes). */
  function pictureWidth(p, board, scale) {
    var compass = p.racks.every(function (r) { return COMPASS.indexOf(r[0]) >= 0; });
    var sideW = compass ? SIDE_WIDTH : 0;
    var innerW = Math.max(board.width * scale + 2 * MARGIN, 300);
    var header = headerLines(p);
    var texts = Math.max.apply(null, [D.len(header[0]) * 8.6].concat(header.slice(1).concat(board.notes).map(
      function (line) { return D.len(line) * 7.4; })));
    return Math.max(innerW + 2 * sideW + 2 * MARGIN, 360, texts + 2 * MARGIN);
  }

  var AGAIN = 4;

  /* frame.draw: the whole picture of a position as an <svg> element, for a box ``box`` px wide (or
     at its own size: none given), every text at least MIN_TEXT px as shown; ``boardAt(scale)`` draws
     the board with its texts sized for ``scale``. */
  function draw(p, boardAt, box) {
    var whole = box === undefined || box === null;
    var board = boardAt(1), scale = fits(board);
    var shown = whole ? 1 : D.fit(box, pictureWidth(p, board, scale)), sized = 1;
    for (var again = 0; again < AGAIN; again++) {
      if (scale * shown >= sized) { break; }
      sized = scale * shown;
      board = boardAt(sized);
      scale = fits(board);
      shown = whole ? 1 : D.fit(box, pictureWidth(p, board, scale));
    }
    var bw = board.width * scale, bh = board.height * scale;
    var seats = p.racks.map(function (r) { return r[0]; });
    var compass = seats.every(function (s) { return COMPASS.indexOf(s) >= 0; });
    var sideW = compass ? SIDE_WIDTH : 0;
    var header = headerLines(p);
    var width = pictureWidth(p, board, scale);
    var titleSize = D.legible(15, shown), words = D.legible(13, shown), line = Math.max(LINE, words + 7);
    var size = p.numerals ? D.tiles.numeralHalf(RACK_TILE, shown) : RACK_TILE;
    var racks = Object.create(null);  /* seats come from the record: no inherited names */
    p.racks.forEach(function (r) {
      var seat = r[0];
      var room = compass && (seat === "W" || seat === "E") ? sideW - 10 : width - 2 * MARGIN;
      racks[seat] = rack(seat, lookup(p.names, seat, ""), r[1], lookup(p.hidden, seat, 0), room, seat === p.turn,
                         size, shown);
    });
    var has = function (seat) { return seat in racks; };

    var y = MARGIN + line * header.length;
    var top = compass && has("N") ? racks.N[2] + GAP * 2 : 0;
    var sideH = ["W", "E"].filter(function (s) { return compass && has(s); }).map(function (s) { return racks[s][2]; });
    var middleH = Math.max(bh + 2 * MARGIN, sideH.length ? Math.max.apply(null, sideH) : 0);
    var below = seats.filter(function (s) { return !compass || s === "S"; });
    var belowH = below.reduce(function (sum, s) { return sum + racks[s][2] + GAP * 3; }, 0);
    var notesH = line * board.notes.length;
    var height = y + top + middleH + GAP * 2 + belowH + notesH + MARGIN;

    var label = header.join(" — ");
    var root = D.element("svg", [["width", width], ["height", height],
                                 ["viewBox", "0 0 " + D.fixed(width, 0) + " " + D.fixed(height, 0)], ["role", "img"],
                                 ["aria-label", label]]);
    D.title(root, label);
    root.setAttribute("class", "position");
    root.setAttribute("data-game", p.game);
    root.setAttribute("data-hand", String(p.hand));
    root.setAttribute("data-move", String(p.move));
    D.sub(root, "rect", [["width", width], ["height", height], ["fill", "#fafaf7"]]);
    header.forEach(function (text, i) {
      D.text(root, MARGIN, MARGIN + line * i + line - 6, text, [["font-size", i === 0 ? titleSize : words],
             ["fill", TEXT], ["font-weight", i === 0 ? "bold" : "normal"],
             ["class", ["title", "last-move", "scores"][Math.min(i, 2)]]]);
    });
    if (compass && has("N")) { place(root, racks.N[0], (width - racks.N[1]) / 2, y); }
    y += top;
    var feltX = MARGIN + sideW, feltW = width - 2 * (MARGIN + sideW);
    D.sub(root, "rect", [["x", feltX], ["y", y], ["width", feltW], ["height", middleH], ["rx", 10], ["fill", FELT],
                         ["class", "felt"]]);
    var holder = board.element;
    holder.setAttribute("class", ((holder.getAttribute("class") || "") + " board").trim());
    place(root, holder, feltX + (feltW - bw) / 2, y + (middleH - bh) / 2, scale);
    if (compass) {
      if (has("W")) { place(root, racks.W[0], MARGIN, y); }
      if (has("E")) { place(root, racks.E[0], width - MARGIN - sideW + 10, y); }
    }
    y += middleH + GAP * 2;
    below.forEach(function (seat) {
      var r = racks[seat];
      place(root, r[0], compass ? (width - r[1]) / 2 : MARGIN, y);
      y += r[2] + GAP * 3;
    });
    board.notes.forEach(function (text) {
      D.text(root, MARGIN, y + line - 6, text, [["font-size", words], ["fill", TEXT], ["class", "note"]]);
      y += line;
    });
    return root;
  }

  /* frame.draw_narrow: a phone's picture in a box ``width`` px wide, of a board drawn for the
     room its felt has (width - 2 * MARGIN): the north rack, the felt, the south rack (or every
     rack, seats not named by the compass), west and east side by side; the racks' tiles of a set
     with numerals (p.numerals, from the scene) big enough for a numeral of MIN_TEXT px. */
  function narrow(p, board, width) {
    var size = p.numerals ? D.tiles.numeralHalf(RACK_TILE, 1) : RACK_TILE;
    var seats = p.racks.map(function (r) { return r[0]; });
    var compass = seats.every(function (s) { return COMPASS.indexOf(s) >= 0; });
    var half = (width - 2 * MARGIN - GAP * 3) / 2;
    var racks = Object.create(null);
    p.racks.forEach(function (r) {
      var side = compass && (r[0] === "W" || r[0] === "E") && seats.indexOf("W") >= 0 && seats.indexOf("E") >= 0;
      racks[r[0]] = rack(r[0], lookup(p.names, r[0], ""), r[1], lookup(p.hidden, r[0], 0), side ? half : width - 2 * MARGIN,
                         r[0] === p.turn, size);
    });
    var scale = D.fit(width - 2 * MARGIN, board.width);
    var bw = board.width * scale, bh = board.height * scale;
    var svg = D.element("svg", [["role", "img"], ["aria-label", headerLines(p).join(" — ")]]);
    svg.setAttribute("class", "position");
    svg.setAttribute("data-game", p.game);
    svg.setAttribute("data-hand", String(p.hand));
    svg.setAttribute("data-move", String(p.move));
    var bg = D.sub(svg, "rect", [["width", width], ["fill", "#fafaf7"]]);
    var y = GAP * 2;
    if (compass && "N" in racks) { place(svg, racks.N[0], MARGIN, y); y += racks.N[2] + GAP * 2; }
    var feltH = bh + 2 * MARGIN;
    D.sub(svg, "rect", [["x", 0], ["y", y], ["width", width], ["height", feltH], ["rx", 10], ["fill", FELT],
                        ["class", "felt"]]);
    var holder = board.element;
    holder.setAttribute("class", ((holder.getAttribute("class") || "") + " board").trim());
    place(svg, holder, (width - bw) / 2, y + MARGIN, scale);
    y += feltH + GAP * 3;
    (compass ? ["S"] : seats).filter(function (s) { return s in racks; }).forEach(function (s) {
      place(svg, racks[s][0], MARGIN, y);
      y += racks[s][2] + GAP * 3;
    });
    if (compass) {
      var pair = ["W", "E"].filter(function (s) { return s in racks; }), tallest = 0;
      pair.forEach(function (s, k) {
        place(svg, racks[s][0], MARGIN + (pair.length > 1 ? k * (half + GAP * 3) : 0), y);
        tallest = Math.max(tallest, racks[s][2]);
      });
      y += tallest + (pair.length ? GAP * 3 : 0);
    }
    var height = y + GAP;
    bg.setAttribute("height", D.num(height));
    svg.setAttribute("viewBox", "0 0 " + D.fixed(width, 0) + " " + D.fixed(height, 0));
    return svg;
  }

  D.frame = {draw: draw, narrow: narrow, headerLines: headerLines, say: say, word: word, tiles: tileCount,
             speak: speak, MARGIN: MARGIN};
})(domrecPictures);
