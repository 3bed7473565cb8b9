/**
 * A small Markdown reader for the rule references: headings, paragraphs, lists, tables,
 * quotes, code and rules, with bold, italics, code and links inline. It builds DOM nodes
 * (never HTML text), so nothing in a rule file can inject markup. Numbered headings and
 * numbered paragraphs ("5.2 **Following** ...") get the anchors `s-5.2`; a "§5.2" in the text
 * links to its anchor.
 */

import { type Child, h } from "../dom";

const SECTION = /^(\d+(?:\.\d+)*)\.?\s/;

/** Inline Markdown as nodes: `code`, **bold**, *italics*, [links](url) and §N.N references. */
export function inline(text: string, prefix: string): Child[] {
  const out: Child[] = [];
  const pattern = /`([^`]+)`|\*\*(.+?)\*\*|\*([^*\s][^*]*?)\*|\[([^\]]+)\]\(([^)\s]+)\)|§\s?(\d+(?:\.\d+)*)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const at = match.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    const [whole, code, bold, em, label, url, section] = match;
    if (code !== undefined) out.push(h("code", {}, code));
    else if (bold !== undefined) out.push(h("strong", {}, ...inline(bold, prefix)));
    else if (em !== undefined) out.push(h("em", {}, ...inline(em, prefix)));
    else if (label !== undefined && url !== undefined) {
      out.push(/^https?:\/\//.test(url) ? h("a", { href: url, rel: "noopener noreferrer" }, label) : label);
    } else if (section !== undefined) {
      out.push(h("a", { href: `#${prefix}s-${section.replace(/\.$/, "")}` }, whole));
    }
    last = at + whole.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function cells(line: string): string[] {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((cell) => cell.trim());
}

/** The sections found while reading: their number, title and anchor. */
export interface Section {
  number: string;
  title: string;
  id: string;
  level: number;
}

/** Draws a fenced block whose info string names it (```` ```cards ````) from its body. */
export type FenceDrawers = Readonly<Record<string, (body: string) => HTMLElement>>;

/**
 * Renders `source` into nodes; `prefix` keeps the anchors of two renderings on one page apart,
 * and a fenced block whose info string `fences` names is drawn by it (else shown as code).
 */
export function renderMarkdown(source: string, prefix = "", fences: FenceDrawers = {}): { nodes: HTMLElement[]; sections: Section[] } {
  const lines = source.replace(/\r\n/g, "\n").split("\n");
  const nodes: HTMLElement[] = [];
  const sections: Section[] = [];
  let i = 0;
  const anchor = (text: string, level: number): string | null => {
    const number = SECTION.exec(text)?.[1];
    if (number === undefined) return null;
    const id = `${prefix}s-${number}`;
    if (sections.some((s) => s.id === id)) return null;
    sections.push({ number, title: text.replace(/\*\*/g, "").slice(0, 90), id, level });
    return id;
  };
  while (i < lines.length) {
    const line = lines[i] ?? "";
    const trimmed = line.trim();
    if (trimmed === "") {
      i += 1;
      continue;
    }
    if (trimmed.startsWith("```")) {
      const draw = fences[trimmed.slice(3).trim()];
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !(lines[i] ?? "").trim().startsWith("```")) body.push(lines[i++] ?? "");
      i += 1;
      nodes.push(draw === undefined ? h("pre", {}, h("code", {}, body.join("\n"))) : draw(body.join("\n")));
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(trimmed);
    if (heading !== null) {
      const level = Math.min(4, Math.max(2, (heading[1] ?? "").length));
      const text = heading[2] ?? "";
      const id = anchor(text, level);
      const tag = level === 2 ? "h2" : level === 3 ? "h3" : "h4";
      nodes.push(h(tag, { id, tabindex: id === null ? null : -1 }, ...inline(text, prefix)));
      i += 1;
      continue;
    }
    if (/^(-{3,}|\*{3,})$/.test(trimmed)) {
      nodes.push(h("hr", {}));
      i += 1;
      continue;
    }
    if (trimmed.startsWith("|")) {
      const rows: string[][] = [];
      while (i < lines.length && (lines[i] ?? "").trim().startsWith("|")) {
        const row = lines[i++] ?? "";
        if (!/^\s*\|[\s:|-]+\|\s*$/.test(row)) rows.push(cells(row));
      }
      const [head, ...body] = rows;
      nodes.push(
        h(
          "div",
          { class: "rules-table" },
          h(
            "table",
            {},
            head === undefined ? null : h("thead", {}, h("tr", {}, ...head.map((c) => h("th", { scope: "col" }, ...inline(c, prefix))))),
            h("tbody", {}, ...body.map((r) => h("tr", {}, ...r.map((c) => h("td", {}, ...inline(c, prefix)))))),
          ),
        ),
      );
      continue;
    }
    if (trimmed.startsWith(">")) {
      const body: string[] = [];
      while (i < lines.length && (lines[i] ?? "").trim().startsWith(">")) body.push((lines[i++] ?? "").trim().replace(/^>\s?/, ""));
      nodes.push(h("blockquote", {}, h("p", {}, ...inline(body.join(" "), prefix))));
      continue;
    }
    const item = /^(?:[-*+]|\d+\.)\s+/;
    if (item.test(trimmed) && !/^\d+\.\d/.test(trimmed)) {
      const ordered = /^\d+\./.test(trimmed);
      const items: string[] = [];
      while (i < lines.length) {
        const next = (lines[i] ?? "").trim();
        if (next === "") break;
        if (item.test(next) && !/^\d+\.\d/.test(next)) items.push(next.replace(item, ""));
        else if (/^\s/.test(lines[i] ?? "") && items.length > 0) items[items.length - 1] += ` ${next}`;
        else break;
        i += 1;
      }
      nodes.push(h(ordered ? "ol" : "ul", {}, ...items.map((text) => h("li", {}, ...inline(text, prefix)))));
      continue;
    }
    const body: string[] = [];
    while (i < lines.length) {
      const next = (lines[i] ?? "").trim();
      if (next === "" || /^(#{1,6}\s|\||>|```|-{3,}$)/.test(next)) break;
      if (body.length > 0 && (item.test(next) && !/^\d+\.\d/.test(next))) break;
      if (body.length > 0 && SECTION.test(next) && /^\d+\.\d/.test(next)) break;
      body.push(next);
      i += 1;
    }
    if (body.length === 0) {
      body.push(trimmed);
      i += 1;
    }
    const text = body.join(" ");
    const id = /^\d+\.\d/.test(text) ? anchor(text, 5) : null;
    nodes.push(h("p", { id, tabindex: id === null ? null : -1, class: id === null ? null : "rule" }, ...inline(text, prefix)));
  }
  return { nodes, sections };
}
