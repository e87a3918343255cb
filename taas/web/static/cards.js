// Cards drawn as SVG from a card kind (suit * 13 + rank, rank 0 = ace; 52 = printed joker),
// the kind numbering of taas.envs.core.cards. Nothing is loaded from outside.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = ["♠", "♥", "♦", "♣"];
const JOKER = 52;

function cardName(kind) {
  return kind === JOKER ? "Jk" : RANKS[kind % 13] + SUITS[Math.floor(kind / 13)];
}

function svgNode(tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// One card; opts.wild marks a wild card, opts.small draws it smaller.
function cardSvg(kind, opts = {}) {
  const svg = svgNode("svg", {
    viewBox: "0 0 50 70",
    class: "card" + (opts.small ? " small" : "") + (opts.wild ? " wild" : ""),
    role: "img",
    "aria-label": cardName(kind),
    "data-card": String(kind),
  });
  svg.appendChild(svgNode("rect", { x: 1, y: 1, width: 48, height: 68, rx: 5, class: "face" }));
  if (kind === JOKER) {
    svg.appendChild(svgNode("text", { x: 25, y: 30, class: "joker" }, "JOKER"));
    svg.appendChild(svgNode("text", { x: 25, y: 54, class: "pip joker-star" }, "★"));
  } else {
    const suit = Math.floor(kind / 13);
    const colour = suit === 1 || suit === 2 ? "red" : "black";
    svg.classList.add(colour);
    svg.appendChild(svgNode("text", { x: 5, y: 16, class: "rank" }, RANKS[kind % 13]));
    svg.appendChild(svgNode("text", { x: 5, y: 29, class: "corner-suit" }, SUITS[suit]));
    svg.appendChild(svgNode("text", { x: 30, y: 56, class: "pip" }, SUITS[suit]));
  }
  if (opts.wild) svg.appendChild(svgNode("text", { x: 44, y: 14, class: "star" }, "★"));
  return svg;
}

// A face-down card, for the cards an opponent holds.
function cardBack() {
  const svg = svgNode("svg", { viewBox: "0 0 50 70", class: "card small back" });
  svg.appendChild(svgNode("rect", { x: 1, y: 1, width: 48, height: 68, rx: 5, class: "backface" }));
  return svg;
}
