/* The replay page's stepping (domrec.replay_page).  The page carries each hand's first position
   and then, a move at a time, what changed (domrec/pictures/changes.py); this builds the position
   asked for from them, draws it with the game's script and frame.js (ports of the picture
   modules), and keeps the counter, the scores, the move list and the address (#h2-m14) in step.
   On a narrow screen the same position is arranged to fit (frame.js's narrow): the board laid out
   for the screen's width, the racks round it at their own size, the last move and the notes as text.  It writes text and
   elements only (never markup), so nothing from a record can become markup. */
(function (D) {
  "use strict";
  var root = document.documentElement;
  root.classList.remove("nojs");
  root.classList.add("js");
  var source = document.getElementById("replay-data");
  var DATA = source ? JSON.parse(source.textContent) : {hands: []};
  var drawBoard = D.games[DATA.game];
  D.frame.speak(DATA.say);
  var NARROW = 800;  /* below this width (CSS px) a picture is arranged for the box (frame.NARROW) */
  var named = new Map(Object.keys(DATA.keys || {}).map(function (a) { return [a, DATA.keys[a]]; }));
  var byHand = {};
  DATA.hands.forEach(function (h) {
    h.changes = h.changes.map(function (edits) {
      return edits.map(function (edit) {
        var path = edit[0] === "" ? [] : edit[0].split(".").map(function (k) {
          return /^[0-9]+$/.test(k) ? +k : named.get(k);
        });
        return [path].concat(edit.slice(1).map(restore));
      });
    });
    byHand[h.hand] = {data: h, models: [restore(h.first)]};
  });
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.hand"))
    .filter(function (s) { return drawBoard && byHand[s.getAttribute("data-hand")]; });
  var current = new Map();
  var active = null;

  function put(target, key, value) {  /* a key from the record never reaches a prototype */
    Object.defineProperty(target, key, {value: value, writable: true, enumerable: true, configurable: true});
  }

  function clone(value) { return JSON.parse(JSON.stringify(value)); }

  /* A value of the page's data with each key's alias read back (replay_page._aliased). */
  function restore(value) {
    if (Array.isArray(value)) { return value.map(restore); }
    if (value === null || typeof value !== "object") { return value; }
    var out = {};
    Object.keys(value).forEach(function (a) { put(out, named.get(a), restore(value[a])); });
    return out;
  }

  /* changes.apply: the edits of one move made on a copy of the position before it. */
  function applyChanges(value, edits) {
    var top = {"": clone(value)};  /* the value in a holder: an edit of the whole is like any other */
    edits.forEach(function (edit) {
      var path = [""].concat(edit[0]);
      var parent = top;
      for (var i = 0; i < path.length - 1; i++) { parent = parent[path[i]]; }
      var key = path[path.length - 1];
      if (edit.length === 1) { delete parent[key]; }
      else if (edit.length === 2) { put(parent, key, clone(edit[1])); }
      else if (edit.length === 3) { parent[key].splice(edit[1], edit[2]); }
      else if (Array.isArray(edit[3])) {
        Array.prototype.splice.apply(parent[key], [edit[1], edit[2]].concat(clone(edit[3])));
      } else {
        var text = parent[key];
        put(parent, key, text.slice(0, edit[1]) + edit[3] + text.slice(text.length - edit[2]));
      }
    });
    return top[""];
  }

  function count(sec) { return byHand[sec.getAttribute("data-hand")].data.changes.length + 1; }

  function model(sec, i) {
    var hand = byHand[sec.getAttribute("data-hand")];
    while (hand.models.length <= i) {
      var k = hand.models.length;
      hand.models.push(applyChanges(hand.models[k - 1], hand.data.changes[k - 1]));
    }
    return hand.models[i];
  }

  /* The move that made position i, as its line of the move list says it (the words, the player's
     name, the points): the picture's "Last:" line is made of the same. */
  function played(sec, i) {
    var item = i ? sec.querySelector(".moves").children[i] : null;
    if (!item) { return null; }
    var who = item.querySelector("small"), pts = item.querySelector("b");  /* (in its link: see below) */
    return {text: item.querySelector("a").firstChild.textContent.trim(), name: who ? who.textContent : "",
            points: pts ? parseInt(pts.textContent.slice(1), 10) : 0};
  }

  function view(sec, i) {
    var data = byHand[sec.getAttribute("data-hand")].data, m = model(sec, i);
    return {game: DATA.game, title: DATA.title, names: DATA.names, hand: data.hand, move: i, moves: data.moves,
            last: played(sec, i), scores: m.scores, made: m.made, ended: m.ended, turn: m.turn,
            racks: m.racks, hidden: m.hidden, numerals: !!(m.board && m.board.numerals)};
  }

  /* The "Last:" line with the player's name in a <bdi> of its own, so that a right-to-left name
     never reorders the move or the points around it (the page's data has no direction controls). */
  function lastLine(box, line, name) {
    var at = name ? line.lastIndexOf("(" + name + ")") : -1;
    if (at < 0) { box.textContent = line; return; }
    var bdi = document.createElement("bdi");
    bdi.className = "name";
    bdi.textContent = name;
    box.append(line.slice(0, at + 1), bdi, line.slice(at + 1 + name.length));
  }

  /* The position for a phone: the last move as a line of text, then one picture as wide as the
     screen (frame.js's narrow: the board laid out for the felt's room, its texts at least 11 px,
     the racks at their own size round it), then the notes as a list. */
  function narrow(box, p, board, width) {
    var last = document.createElement("p");
    last.className = "last";
    lastLine(last, D.frame.headerLines(p)[1], p.last && p.last.name ? D.clip(p.last.name, 24) : "");
    box.appendChild(last);
    box.appendChild(D.frame.narrow(p, board, width));
    if (board.notes.length) {
      var notes = document.createElement("ul");
      notes.className = "notes";
      board.notes.forEach(function (line) {
        var item = document.createElement("li");
        item.textContent = line;
        notes.appendChild(item);
      });
      box.appendChild(notes);
    }
  }

  function draw(sec, i) {
    var box = sec.querySelector(".picture");
    var p = view(sec, i), width = box.clientWidth;
    var small = width > 0 && width < NARROW;
    var scene = model(sec, i).board;
    box.textContent = "";
    box.classList.toggle("narrow", small);
    box.setAttribute("data-width", String(width));
    if (small) { narrow(box, p, drawBoard(scene, width - 2 * D.frame.MARGIN), width); }
    else {  /* the whole picture, its texts sized for the box it is shown in (frame.draw) */
      box.appendChild(D.frame.draw(p, function (scale) { return drawBoard(scene, null, scale); }, width > 0 ? width : null));
    }
    return p;
  }

  function reveal(list, item) {  /* scroll the move list itself, never the page */
    if (!item) { return; }
    var top = item.offsetTop, bottom = top + item.offsetHeight;
    if (top < list.scrollTop) { list.scrollTop = top; }
    else if (bottom > list.scrollTop + list.clientHeight) { list.scrollTop = bottom - list.clientHeight; }
  }

  function show(sec, i, address) {
    var n = count(sec);
    i = Math.max(0, Math.min(n - 1, i));
    current.set(sec, i);
    var p = draw(sec, i);
    sec.querySelector(".counter").textContent = D.frame.say(i === 0 ? "move %(n)s of %(n2)s (the deal)"
                                                                  : "move %(n)s of %(n2)s", {n: i, n2: p.moves});
    sec.querySelector(".scores").textContent = D.frame.headerLines(p)[2];
    var list = sec.querySelector(".moves"), items = list ? list.children : [], now = null;
    for (var j = 0; j < items.length; j++) {
      var here = j === i;
      items[j].classList.toggle("current", here);
      if (here) { items[j].setAttribute("aria-current", "step"); now = items[j]; }
      else { items[j].removeAttribute("aria-current"); }
    }
    if (list && now) { reveal(list, now.nextElementSibling); reveal(list, now); }
    var buttons = sec.querySelectorAll("button[data-go]");
    for (var b = 0; b < buttons.length; b++) {
      var go = buttons[b].getAttribute("data-go");
      var off = (go === "first" || go === "prev") ? i === 0 : i === n - 1;
      buttons[b].setAttribute("aria-disabled", off ? "true" : "false");
    }
    active = sec;
    if (address && window.history && history.replaceState) {
      try { history.replaceState(null, "", "#h" + sec.getAttribute("data-hand") + "-m" + i); } catch (e) { /* no address */ }
    }
  }

  function step(sec, go) {
    var i = current.get(sec), n = count(sec);
    var to = {first: 0, prev: i - 1, next: i + 1, last: n - 1}[go];
    if (to !== undefined) { show(sec, to, true); }
  }

  function visible(sec) {
    var r = sec.getBoundingClientRect();
    return Math.max(0, Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0));
  }

  function onScreen() {
    var best = null, most = 0;
    sections.forEach(function (s) { var v = visible(s); if (v > most) { most = v; best = s; } });
    return best;
  }

  function go(anchor) {  /* an address naming a position: #h2-m14 */
    var found = /^h(\d+)-m(\d+)$/.exec(anchor || "");
    if (!found) { return false; }
    var sec = sections.filter(function (s) { return s.getAttribute("data-hand") === found[1]; })[0];
    if (!sec || +found[2] >= count(sec)) { return false; }
    show(sec, +found[2], false);
    sec.scrollIntoView({block: "start"});
    return true;
  }

  var buttons = document.getElementById("step-buttons");
  sections.forEach(function (sec) {  /* the step buttons round the counter: first, back, on, last */
    var items = sec.querySelector(".moves").children, n = count(sec);
    for (var i = 0; i < n && i < items.length; i++) {  /* each replayed move's line: a link to its position */
      var words = items[i].firstChild;
      if (!words || words.nodeType !== Node.TEXT_NODE) { continue; }
      var link = document.createElement("a");
      link.setAttribute("href", "#h" + sec.getAttribute("data-hand") + "-m" + i);
      items[i].prepend(link);
      /* its words, its player's name and its points: a click on a long name beside the words showed nothing */
      while (link.nextSibling && /^(#text|SMALL|B)$/.test(link.nextSibling.nodeName)) { link.append(link.nextSibling); }
    }
    var copy = buttons.content.cloneNode(true).querySelectorAll("button"), counter = sec.querySelector(".counter");
    counter.parentNode.insertBefore(copy[0], counter);
    counter.parentNode.insertBefore(copy[1], counter);
    counter.parentNode.insertBefore(copy[3], counter.nextSibling);
    counter.parentNode.insertBefore(copy[2], counter.nextSibling);
  });

  sections.forEach(function (sec) {
    sec.addEventListener("click", function (e) {
      var button = e.target.closest("button[data-go]");
      if (button) { step(sec, button.getAttribute("data-go")); return; }
      var link = e.target.closest(".moves li > a[href^='#h']");
      if (link) {
        var found = /-m(\d+)$/.exec(link.getAttribute("href"));
        if (found) { e.preventDefault(); show(sec, +found[1], true); }
        return;
      }
      active = sec;
    });
    sec.addEventListener("focusin", function () { active = sec; });
    show(sec, sec.hasAttribute("data-open") ? +sec.getAttribute("data-open") : count(sec) - 1, false);
  });

  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) { return; }
    var keys = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"};
    if (!(e.key in keys)) { return; }
    var sec = (t && t.closest && t.closest("section.hand")) || active;
    if (!sec || sections.indexOf(sec) < 0 || !visible(sec)) { sec = onScreen(); }
    if (!sec) { return; }
    e.preventDefault();
    step(sec, keys[e.key]);
  });

  window.addEventListener("hashchange", function () { go(location.hash.slice(1)); });

  var pending = false;
  window.addEventListener("resize", function () {  /* a turned phone: each picture to its new width */
    if (pending) { return; }
    pending = true;
    window.requestAnimationFrame(function () {
      pending = false;
      sections.forEach(function (sec) {
        var box = sec.querySelector(".picture");
        if (box && box.getAttribute("data-width") !== String(box.clientWidth)) { draw(sec, current.get(sec)); }
      });
    });
  });

  if (!go(location.hash.slice(1))) {
    var first = document.querySelector("section.hand[data-first-problem]");
    if (first) { active = first; first.scrollIntoView({block: "start"}); }
  }
})(domrecPictures);
