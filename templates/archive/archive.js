/* The game page's replay: the board at every step, drawn from the steps embedded in the
   page (the mails' board view-model, each step a patch of the one before). Text from
   the data is only ever set as text, never as markup. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("game-data").textContent);
  var steps = data.steps;
  var last = steps.length - 1;
  var boards = [steps[0].p];
  var byId = { start: 0, end: last };
  var phaseStarts = [0];
  steps.forEach(function (s, i) {
    byId[s.id] = i;
    byId["s" + i] = i;
    if (i > 0 && /^r\d+-[a-z0-9]+$/.test(s.id)) phaseStarts.push(i);
  });
  Object.keys(data.rounds).forEach(function (k) { byId[k] = data.rounds[k]; });
  var current = -1;
  var timer = null;
  var ready = false;
  // The buildings for sale are folded on a narrow screen, until the reader opens them.
  var marketOpen = !window.matchMedia || window.matchMedia("(min-width: 760px)").matches;

  // -- the board at step i ---------------------------------------------------
  function applyPatch(base, p) {
    if (p === null || typeof p !== "object" || Array.isArray(p)) return p;
    if (Array.isArray(base)) {
      var list = base.slice();
      Object.keys(p["@"]).forEach(function (k) { list[+k] = applyPatch(base[+k], p["@"][k]); });
      return list;
    }
    if (base === null || typeof base !== "object") return p;
    var out = Object.assign({}, base);
    Object.keys(p).forEach(function (k) { out[k] = applyPatch(base[k], p[k]); });
    return out;
  }
  function boardAt(i) {
    while (boards.length <= i) boards.push(applyPatch(boards[boards.length - 1], steps[boards.length].p));
    return boards[i];
  }

  // -- drawing ------------------------------------------------------------------
  function el(tag, attrs, kids) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "cls") node.className = attrs[k];
      else if (k === "style") node.setAttribute("style", attrs[k]);
      else node.setAttribute(k, attrs[k]);
    });
    (kids || []).forEach(function (kid) {
      if (kid === null || kid === undefined) return;
      node.appendChild(typeof kid === "string" ? document.createTextNode(kid) : kid);
    });
    return node;
  }
  // A fact of the board as the mails word it ("indigo, sugar; 2 free").
  function worded(facts, label) {
    for (var i = 0; i < facts.length; i++) if (facts[i].label === label) return facts[i].values.join("; ");
    return "";
  }
  function plural(n, word, words) { return n + " " + (n === 1 ? word : (words || word + "s")); }
  function picture(label, kids, cls) { return el("span", { role: "img", "aria-label": label, cls: cls || "" }, kids); }
  function barrel(good) { return el("span", { cls: "barrel g-" + good, title: good, "aria-hidden": "true" }); }
  function circle(on) { return el("span", { cls: "circle" + (on ? " on" : ""), "aria-hidden": "true" }); }
  function circles(on, all) {
    var kids = [];
    for (var i = 0; i < all; i++) kids.push(circle(i < on));
    return el("span", { cls: "circles" }, kids);
  }
  function coins(n) {
    var kids = [];
    for (var i = 0; i < n; i++) kids.push(el("span", { cls: "coin" }));
    return picture(n ? plural(n, "doubloon") : "no doubloons", kids, "coins");
  }
  function colonists(n, max) {
    var kids = [];
    for (var i = 0; i < Math.min(n, max); i++) kids.push(el("span", { cls: "colonist" }));
    return picture(plural(n, "colonist"), kids, "tiles");
  }
  function panel(title, kids, cls) {
    return el("section", { cls: "panel " + (cls || "") }, [el("h3", { text: title })].concat(kids));
  }
  function fact(label, kids) { return el("div", { cls: "fact" }, [el("span", { cls: "label", text: label })].concat(kids)); }

  function drawRoles(b) {
    return panel("Roles", [el("div", { cls: "roles" }, b.roles.map(function (r) {
      var cls = "role" + (r.taken_by ? " taken" : "") + (r.current ? " current" : "");
      var by = r.taken_by ? (r.current ? "being carried out by " : "taken by ") + r.taken_by : "";
      var seat = r.taken_by ? data.names.indexOf(r.taken_by) : -1;
      return el("div", { cls: cls, style: seat >= 0 ? "--seat:" + data.colours[seat] : "" }, [el("b", { text: r.name }), coins(r.doubloons),
        by ? el("span", { cls: "by", text: by }) : null]);
    }))], "roles-panel");
  }

  function drawShip(s) {
    var kids = [];
    for (var i = 0; i < s.capacity; i++) {
      if (i < s.count) kids.push(barrel(s.good));
      else kids.push(el("span", { cls: "slot" + (s.count ? " loading" : ""), "aria-hidden": "true", text: s.count ? "·" : "?" }));
    }
    return el("div", { cls: "ship" }, [el("span", { cls: "name", text: s.capacity + "-ship" }), picture(s.label, kids, "hull")]);
  }

  function drawCommons(b) {
    var house = b.trading_house.map(function (g) { return barrel(g); });
    for (var i = 0; i < b.trading_house_free; i++) house.push(el("span", { cls: "slot", "aria-hidden": "true", text: "?" }));
    var houseText = "Trading house: " + worded(b.facts, "Trading house");
    var goods = b.goods_supply.map(function (g) {
      return el("span", { cls: "item" }, [barrel(g.good), el("span", { text: g.count + " " + g.good })]);
    });
    var plantations = b.face_up.map(function (g) { return el("span", { cls: "tile g-" + g, title: g, "aria-hidden": "true" }); });
    return el("div", { cls: "commons" }, [
      drawRoles(b),
      panel("Cargo ships", b.ships.map(drawShip)),
      panel("Trading house, colonists and chips", [
        fact("Trading house", [picture(houseText, house, "house")]),
        fact("Colonist ship", [colonists(b.colonist_ship, 30), el("span", { cls: "count", text: String(b.colonist_ship) })]),
        fact("Colonist supply", [el("span", { cls: "count", text: String(b.colonist_supply) })]),
        fact("VP chips left", [el("span", { cls: "chip", text: String(b.vp_chips) })])
      ]),
      panel("Plantations and goods", [
        fact("Face up", [picture("Plantations: " + worded(b.facts, "Plantations"), plantations, "tiles"),
          el("span", { cls: "muted small", "aria-hidden": "true", text: b.face_up.join(", ") || "none" })]),
        fact("Quarries", [el("span", { cls: "tile g-quarry", "aria-hidden": "true" }), el("span", { cls: "count", text: String(b.quarries) })]),
        fact("Face down", [el("span", { cls: "count", text: plural(b.pile, "plantation") })]),
        el("div", { cls: "stock" }, goods)
      ]),
      drawMarket(b)
    ]);
  }

  function drawMarket(b) {
    var cards = b.buildings.map(function (x) {
      var good = data.produces[x.name];
      return el("div", { cls: "forsale" + (good ? " prod" : ""), style: good ? "--bar:var(--" + good + ")" : "" }, [
        el("b", { text: x.name }),
        el("span", { text: "cost " + x.price + " · " + x.vp + " VP · " + x.left + " left " }),
        picture(plural(x.circles, "circle"), [circles(0, x.circles)])
      ]);
    });
    b.sold_out.forEach(function (name) { cards.push(el("div", { cls: "forsale none" }, [el("b", { text: name }), el("span", { text: "sold out" })])); });
    var box = el("details", { cls: "panel roles-panel market-panel" }, [
      el("summary", {}, [el("h3", { text: "Buildings for sale" }), el("span", { cls: "muted", text: " " + plural(b.buildings.length, "kind") + " left" })]),
      el("div", { cls: "market" }, cards)
    ]);
    if (marketOpen) box.setAttribute("open", "");
    box.addEventListener("toggle", function () { marketOpen = box.open; });
    return box;
  }

  function drawPlayer(p, score, live) {
    var seat = p.seat;
    var badges = [];
    if (p.governor) badges.push(el("span", { cls: "badge gov", text: "governor" }));
    p.roles.forEach(function (r) { badges.push(el("span", { cls: "badge", text: r })); });
    if (p.deciding) badges.push(el("span", { cls: "badge turn", text: "to decide" }));
    var head = el("header", {}, [el("h3", { text: p.name })].concat(badges).concat([
      el("span", { cls: "score" }, ["score ", el("b", { cls: "player-score", "data-seat": String(seat), text: String(score) })])
    ]));
    var goods = p.goods.map(function (g) {
      var kids = [];
      for (var i = 0; i < Math.min(g.count, 12); i++) kids.push(barrel(g.good));
      return picture(g.count + " " + g.good, kids, "tiles");
    });
    var purse = el("div", { cls: "purse" }, [
      el("span", {}, [el("span", { cls: "coin", "aria-hidden": "true" }), " ", el("b", { text: String(p.doubloons) }), p.doubloons === 1 ? " doubloon" : " doubloons"]),
      el("span", {}, [el("span", { cls: "chip", text: String(p.vp) }), " VP chips"]),
      el("span", {}, goods.length ? ["goods "].concat(goods) : ["no goods"])
    ]);
    // the island: one square per plantation or quarry, with its circle
    var isles = [];
    p.island.forEach(function (t) {
      var good = t.name === "quarry" ? "quarry" : t.name;
      for (var i = 0; i < t.tiles; i++) {
        isles.push(el("span", { cls: "isle g-" + good, title: good + (i < t.manned ? ", manned" : ", idle") }, [circle(i < t.manned)]));
      }
    });
    for (var k = 0; k < p.island_free; k++) isles.push(el("span", { cls: "isle free" }));
    var islandText = "Island (manned/tiles): " + worded(p.facts, "Island");
    // the city: a building per space (a large one takes two), with its circles
    var built = p.city.filter(function (x) { return x.large; }).concat(p.city.filter(function (x) { return !x.large; }));
    var city = built.map(function (x) {
      var good = data.produces[x.name];
      return el("div", { cls: "bld" + (good ? " prod" : "") + (x.large ? " large" : ""), style: good ? "--bar:var(--" + good + ")" : "" }, [
        el("span", { cls: "n", text: x.name }),
        picture(x.colonists + " of " + plural(x.circles, "circle") + " manned", [circles(x.colonists, x.circles)])
      ]);
    });
    for (var f = 0; f < p.city_free; f++) city.push(el("div", { cls: "bld free", "aria-hidden": "true" }));
    return el("article", { cls: "player" + (p.deciding ? " deciding" : ""), style: "--seat:" + data.colours[seat], "aria-label": p.name }, [
      head, purse,
      el("div", { cls: "area" }, [el("h4", { text: "Island" }), picture(islandText, isles, "island")]),
      el("div", { cls: "area" }, [el("h4", { text: "City" }), el("div", { cls: "city" }, city)]),
      el("div", { cls: "sanjuan" }, ["San Juan: ", colonists(p.san_juan, 20), el("b", { text: String(p.san_juan) })])
    ].concat((live && data.now[p.seat] || []).map(function (line) { return el("p", { cls: "now", text: line }); })));
  }

  function drawBoard(b, scores, live) {
    // The mails' own words for where the game is and what is pressing.
    var kids = [el("p", { cls: "where", text: b.title })];
    b.notices.forEach(function (notice, k) {
      var warn = b.last_round && k === b.notices.length - 1;
      kids.push(el("p", { cls: warn ? "warn" : "deciding-now", text: notice }));
    });
    kids.push(drawCommons(b));
    kids.push(el("div", { cls: "players" }, b.players.map(function (p) { return drawPlayer(p, scores[p.seat], live); })));
    return el("div", { cls: "drawn" }, kids);
  }

  // -- going to a step ---------------------------------------------------------
  var boardNode = document.getElementById("board");
  var slider = document.getElementById("step");
  var title = document.getElementById("step-title");
  var when = document.getElementById("step-when");
  var events = document.getElementById("step-events");
  var cursor = document.getElementById("cursor");
  var logLines = document.querySelectorAll(".log li[data-step]");
  var side = document.querySelector(".side-col");

  function localTime(iso) {
    var d = new Date(iso);
    if (isNaN(d.getTime())) return "";
    try {
      return d.toLocaleString(undefined, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
    } catch (e) { return d.toString(); }
  }

  function go(i, keepAddress) {
    i = Math.max(0, Math.min(last, i));
    if (i === current) return;
    current = i;
    var s = steps[i];
    var drawn = drawBoard(boardAt(i), s.s, i === last);
    var old = boardNode.querySelector(".drawn");
    if (old) boardNode.replaceChild(drawn, old); else boardNode.appendChild(drawn);
    title.textContent = s.label + (i === 0 ? " · the start" : " · step " + i + " of " + last);
    when.textContent = s.t ? "at " + localTime(s.t) + (s.n ? " · " + s.n : "") : "";
    events.textContent = "";
    (i === 0 ? ["The game begins."] : s.e).forEach(function (line) { events.appendChild(el("li", { text: line })); });
    slider.value = String(i);
    slider.setAttribute("aria-valuetext", title.textContent);
    if (cursor) { cursor.setAttribute("x1", String(i)); cursor.setAttribute("x2", String(i)); }
    document.querySelectorAll(".now-score").forEach(function (node) { node.textContent = String(s.s[+node.getAttribute("data-seat")]); });
    var first = null;
    logLines.forEach(function (li) {
      var on = +li.getAttribute("data-step") === i;
      li.classList.toggle("current", on);
      if (on && !first) first = li;
    });
    // On a wide screen the log has a scrolling column of its own: keep the step in view
    // there (on a narrow one that would pull the whole page down to the log).
    // Not when the page opens: the reader first sees the scores at the top of the column.
    if (ready && first && side && getComputedStyle(side).overflowY === "auto") {
      var line = first.getBoundingClientRect(), box = side.getBoundingClientRect();
      var top = Math.max(box.top, 0), bottom = Math.min(box.bottom, window.innerHeight);
      // the column scrolls, never the page
      if (line.bottom > bottom) side.scrollTop += line.bottom - bottom + 8;
      else if (line.top < top) side.scrollTop -= top - line.top + 8;
    }
    document.querySelectorAll("[data-go]").forEach(function (b) {
      var back = /first|prev/.test(b.getAttribute("data-go"));
      var fwd = /last|next|play/.test(b.getAttribute("data-go"));
      b.disabled = (back && i === 0) || (fwd && i === last);
    });
    if (!keepAddress) {
      try { history.replaceState(null, "", "#" + s.id); } catch (e) { /* a file: URL some browsers refuse */ }
    }
  }

  function phase(dir) {
    if (dir < 0) {
      for (var k = phaseStarts.length - 1; k >= 0; k--) if (phaseStarts[k] < current) return phaseStarts[k];
      return 0;
    }
    for (var j = 0; j < phaseStarts.length; j++) if (phaseStarts[j] > current) return phaseStarts[j];
    return last;
  }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    var b = document.querySelector('[data-go="play"]');
    b.setAttribute("aria-pressed", "false");
    b.textContent = "play";
  }
  function play() {
    if (timer !== null) { stop(); return; }
    if (current >= last) go(0);
    var b = document.querySelector('[data-go="play"]');
    b.setAttribute("aria-pressed", "true");
    b.textContent = "pause";
    timer = setInterval(function () { if (current >= last) stop(); else go(current + 1); }, 1000);
  }

  function command(what) {
    if (what !== "play") stop();
    if (what === "first") go(0);
    else if (what === "last") go(last);
    else if (what === "prev") go(current - 1);
    else if (what === "next") go(current + 1);
    else if (what === "prev-phase") go(phase(-1));
    else if (what === "next-phase") go(phase(1));
    else if (what === "play") play();
  }

  document.querySelectorAll("[data-go]").forEach(function (b) {
    b.addEventListener("click", function () { command(b.getAttribute("data-go")); });
  });
  slider.addEventListener("input", function () { stop(); go(+slider.value); });
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    var t = e.target;
    if (t && (t.tagName === "INPUT" && t.type !== "range" || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
    if (t === slider && !e.shiftKey && /^Arrow|^Home$|^End$|^Page/.test(e.key)) return; // the slider moves itself
    var what = null;
    if (e.key === "ArrowLeft") what = e.shiftKey ? "prev-phase" : "prev";
    else if (e.key === "ArrowRight") what = e.shiftKey ? "next-phase" : "next";
    else if (e.key === "PageUp") what = "prev-phase";
    else if (e.key === "PageDown") what = "next-phase";
    else if (e.key === "Home") what = "first";
    else if (e.key === "End") what = "last";
    if (what) { e.preventDefault(); command(what); }
  });
  function fromAddress() {
    var name = decodeURIComponent(location.hash.replace(/^#/, ""));
    if (Object.prototype.hasOwnProperty.call(byId, name)) {
      stop();
      go(byId[name], true);
      return true;
    }
    return false;
  }
  window.addEventListener("hashchange", function () {
    if (fromAddress()) document.getElementById("happened").scrollIntoView({ block: "nearest" });
  });
  document.querySelectorAll(".local[data-for]").forEach(function (node) {
    var t = localTime(node.getAttribute("data-for"));
    if (t) node.textContent = " (your time: " + t + ")";
  });
  if (!fromAddress()) go(last, true);
  ready = true;
})();
