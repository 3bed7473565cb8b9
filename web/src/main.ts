/**
 * The client's router: `/` lobby, `/play/{id}` a table, `/join/{id}/{seat}` an open seat,
 * `/replay/{id}` the replay viewer, `/rules/{game}` a game's rules.
 */

import { fill, h } from "./dom";
import { langSwitch, T } from "./i18n/index";
import { joinPage } from "./join";
import { lobbyPage } from "./lobby";
import { playPage } from "./play";
import { replayPage } from "./replay";
import { rulesPage } from "./rules/page";

function route(root: HTMLElement): void {
  const path = location.pathname;
  const play = /^\/play\/([^/]+)\/?$/.exec(path);
  const replay = /^\/replay\/([^/]+)\/?$/.exec(path);
  const join = /^\/join\/([^/]+)\/(\d+)\/?$/.exec(path);
  const rules = /^\/rules\/([^/]+)\/?$/.exec(path);
  if (path === "/") {
    lobbyPage(root);
  } else if (play !== null) {
    void playPage(root, decodeURIComponent(play[1] ?? ""));
  } else if (join !== null) {
    void joinPage(root, decodeURIComponent(join[1] ?? ""), Number(join[2]));
  } else if (replay !== null) {
    void replayPage(root, decodeURIComponent(replay[1] ?? ""));
  } else if (rules !== null) {
    rulesPage(root, decodeURIComponent(rules[1] ?? ""));
  } else {
    document.title = T.notFound;
    fill(root, h("nav", {}, langSwitch()), h("h1", {}, T.notFound), h("a", { href: "/" }, T.backToLobby));
  }
}

const root = document.getElementById("app");
if (root !== null) route(root);
