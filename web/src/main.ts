/**
 * The client's router: `/` lobby, `/play/{id}` a table, `/join/{id}/{seat}` an open seat,
 * `/replay/{id}` the replay viewer.
 */

import { fill, h } from "./dom";
import { joinPage } from "./join";
import { lobbyPage } from "./lobby";
import { playPage } from "./play";
import { replayPage } from "./replay";

function route(root: HTMLElement): void {
  const path = location.pathname;
  const play = /^\/play\/([^/]+)\/?$/.exec(path);
  const replay = /^\/replay\/([^/]+)\/?$/.exec(path);
  const join = /^\/join\/([^/]+)\/(\d+)\/?$/.exec(path);
  if (path === "/") {
    lobbyPage(root);
  } else if (play !== null) {
    void playPage(root, decodeURIComponent(play[1] ?? ""));
  } else if (join !== null) {
    void joinPage(root, decodeURIComponent(join[1] ?? ""), Number(join[2]));
  } else if (replay !== null) {
    void replayPage(root, decodeURIComponent(replay[1] ?? ""));
  } else {
    fill(root, h("h1", {}, "Not found"), h("a", { href: "/" }, "Back to the lobby"));
  }
}

const root = document.getElementById("app");
if (root !== null) route(root);
