// The viewer's page: plain JavaScript over the JSON API of agents/view/app.py. It knows no game: every word it
// shows comes from the server (labels, views, groups), every picture from the game's render module.
"use strict";

const $ = (id) => document.getElementById(id);
const KEYS = "1234567890abcdefghijklmnopqrstuvwxyz"; // the keys of the person's legal actions, in the order shown

async function api(path, options) {
  const response = await fetch(path, options);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `${response.status} ${path}`);
  return body;
}

function showError(error) {
  const box = $("error");
  box.textContent = error ? String(error.message || error) : "";
  box.hidden = !error;
}

function show(section) {
  for (const id of ["home", "replay", "game"]) $(id).hidden = id !== section;
}

function viewName(view) {
  if (view === "public") return "public (spectator)";
  if (view === "omniscient") return "full table";
  return `seat ${view}`;
}

function fillViews(select, views, current) {
  select.replaceChildren(
    ...views.map((view) => {
      const option = new Option(viewName(view), String(view));
      option.selected = String(view) === String(current);
      return option;
    }),
  );
}

function actorName(player, players) {
  if (player === "chance") return "chance";
  const label = players && players[player] ? ` (${players[player]})` : "";
  return `seat ${player}${label}`;
}

function outcomeText(outcome) {
  if (!outcome) return "no result";
  const parts = outcome.returns.map((value, seat) => {
    const score = outcome.scores ? `, score ${+outcome.scores[seat].toFixed(3)}` : "";
    return `seat ${seat}: ${value > 0 ? "won" : value < 0 ? "lost" : "drew"}${score}`;
  });
  return (outcome.terminal === false ? "unfinished; " : "") + parts.join("; ");
}

function replayOutcome(replay) {
  // A running live game's record has no outcome yet (its scores may count what is hidden).
  if (replay.running) return "running (a live game: your seat's view or the public one until it ends)";
  return outcomeText(replay.outcome);
}

function eventItems(list, events, players, onClick) {
  list.replaceChildren(
    ...events.map((event) => {
      const item = document.createElement("li");
      item.value = event.step;
      item.dataset.step = event.step;
      item.className = event.player === "chance" ? "chance" : "decision";
      item.textContent = `${actorName(event.player, players)}: ${event.label}${event.note ? ` ${event.note}` : ""}`;
      if (onClick) item.addEventListener("click", () => onClick(event.step));
      return item;
    }),
  );
}

function route() {
  const [path, query] = location.hash.slice(1).split("?");
  return { path: path || "/", params: new URLSearchParams(query || "") };
}

// ------------------------------------------------------------------------------------------------ home
async function openHome() {
  show("home");
  const [info, listed, live] = await Promise.all([api("/api/info"), api("/api/replays"), api("/api/games")]);
  $("folder").textContent = info.folder;
  $("agent-names").textContent = info.agents.join(", ");
  const envSelect = $("new-env");
  if (!envSelect.options.length) {
    envSelect.replaceChildren(...info.envs.map((env) => new Option(env, env)));
    newGameAgents = info.new_game_agents;
    fillAgents();
  }
  $("replays").tBodies[0].replaceChildren(
    ...listed.replays.map((replay) => {
      const row = document.createElement("tr");
      row.dataset.name = replay.name;
      const link = document.createElement("a");
      link.href = `#/replay/${encodeURIComponent(replay.name)}`;
      link.textContent = replay.name;
      const cells = replay.error
        ? [replay.error]
        : [replay.env_id || replay.game, replay.seed ?? "-", (replay.players || []).join(", ") || "-",
           `${replay.steps} (${replay.decisions} decisions)`, replayOutcome(replay)];
      const first = document.createElement("td");
      first.append(link);
      row.append(first, ...cells.map((text) => Object.assign(document.createElement("td"), { textContent: text })));
      if (replay.error) row.className = "bad";
      return row;
    }),
  );
  $("games").replaceChildren(
    ...live.games.map((game) => {
      const item = document.createElement("li");
      const link = Object.assign(document.createElement("a"), { href: `#/game/${game.name}`, textContent: game.name });
      item.append(link, ` ${game.env_id}: ${game.players.join(", ")}${game.over ? " (over)" : ""}`);
      return item;
    }),
  );
}

let newGameAgents = {}; // each env id's default agents (one per seat, the person last), from /api/info

function fillAgents() {
  // The agents of a valid game of the env selected: the defaults the server gives for it.
  const agents = newGameAgents[$("new-env").value];
  if (agents) $("new-agents").value = agents.join(", ");
}

$("new-env").addEventListener("change", fillAgents);

$("new-game").addEventListener("submit", async (submitted) => {
  submitted.preventDefault();
  const seed = $("new-seed").value;
  const body = {
    env: $("new-env").value,
    agents: $("new-agents").value.split(",").map((spec) => spec.trim()).filter(Boolean),
    seed: seed === "" ? null : Number(seed),
  };
  try {
    const game = await api("/api/games", { method: "POST", body: JSON.stringify(body) });
    showError(null);
    location.hash = `#/game/${game.name}`;
  } catch (error) {
    showError(error);
  }
});

// ------------------------------------------------------------------------------------------------ replay player
const player = { name: null, view: null, header: null, step: 0, timer: null, request: 0 };

async function openReplay(name, params) {
  show("replay");
  const view = params.get("view") || "public";
  if (player.name !== name || String(player.view) !== view || !player.header) {
    stopPlaying();
    player.header = await api(`/api/replays/${encodeURIComponent(name)}/steps?view=${encodeURIComponent(view)}`);
    player.name = name;
    player.view = player.header.view;
    const header = player.header;
    $("replay-title").textContent =
      `${name}: ${header.env_id || header.game}, seed ${header.seed ?? "-"}` +
      `, ${(header.players || []).join(" vs ") || `${header.num_players} seat(s)`} - ${replayOutcome(header)}`;
    fillViews($("view"), header.views, header.view);
    eventItems($("events"), header.events, header.players, (step) => goTo(step));
    $("picture").hidden = !header.picture;
  }
  const step = Math.max(0, Math.min(Number(params.get("step") || 0), player.header.steps));
  await showStep(step);
}

function goTo(step) {
  const steps = player.header.steps;
  const target = Math.max(0, Math.min(step, steps));
  location.hash = `#/replay/${encodeURIComponent(player.name)}?view=${encodeURIComponent(player.view)}&step=${target}`;
}

async function showStep(step) {
  const request = ++player.request; // a later step asked for meanwhile wins
  const base = `/api/replays/${encodeURIComponent(player.name)}/states/${step}`;
  const state = await api(`${base}?view=${encodeURIComponent(player.view)}`);
  if (request !== player.request) return;
  player.step = step;
  const header = player.header;
  $("text").textContent = state.text;
  if (header.picture) $("picture").src = `${base}/picture`;
  $("step-label").textContent = `step ${step} / ${header.steps}`;
  const event = header.events[step - 1];
  const rewards = state.rewards.some((value) => value !== 0) ? `  (rewards ${state.rewards.join(", ")})` : "";
  $("event").textContent = event
    ? `step ${step}: ${actorName(event.player, header.players)}: ${event.label}${rewards}`
    : `the start: ${state.to_act === "chance" ? "chance" : `seat ${state.to_act}`} to act`;
  for (const item of $("events").children) item.classList.toggle("current", Number(item.dataset.step) === step);
  const current = $("events").children[step - 1];
  if (current) current.scrollIntoView({ block: "nearest" });
  $("prev").disabled = $("start").disabled = step === 0;
  $("next").disabled = $("end").disabled = step === header.steps;
}

function decisionStep(direction) {
  // The next (or previous) step whose event is a seat's decision, from the current one.
  const events = player.header.events;
  for (let step = player.step + direction; step >= 1 && step <= events.length; step += direction) {
    if (events[step - 1].player !== "chance") return step;
  }
  return direction > 0 ? events.length : 0;
}

function stopPlaying() {
  if (player.timer !== null) clearInterval(player.timer);
  player.timer = null;
  $("play").textContent = "play";
}

function togglePlaying() {
  if (player.timer !== null) return stopPlaying();
  if (player.step >= player.header.steps) goTo(0);
  $("play").textContent = "pause";
  player.timer = setInterval(() => {
    if (player.step >= player.header.steps) return stopPlaying();
    goTo(player.step + 1);
  }, 1000 / Number($("speed").value));
}

$("start").addEventListener("click", () => goTo(0));
$("prev").addEventListener("click", () => goTo(player.step - 1));
$("next").addEventListener("click", () => goTo(player.step + 1));
$("end").addEventListener("click", () => goTo(player.header.steps));
$("prev-decision").addEventListener("click", () => goTo(decisionStep(-1)));
$("next-decision").addEventListener("click", () => goTo(decisionStep(1)));
$("play").addEventListener("click", togglePlaying);
$("speed").addEventListener("change", () => {
  if (player.timer !== null) {
    stopPlaying();
    togglePlaying();
  }
});
$("view").addEventListener("change", () => {
  location.hash = `#/replay/${encodeURIComponent(player.name)}?view=${encodeURIComponent($("view").value)}&step=${player.step}`;
});

// ------------------------------------------------------------------------------------------------ live game
const live = { name: null, status: null };

async function openGame(name, params) {
  show("game");
  live.name = name;
  const view = params.get("view");
  showGame(await api(`/api/games/${encodeURIComponent(name)}${view ? `?view=${encodeURIComponent(view)}` : ""}`));
}

function showGame(status) {
  live.status = status;
  $("game-title").textContent = `${status.env_id}: ${status.players.map((who, seat) => `seat ${seat} ${who}`).join(", ")}`;
  fillViews($("game-view"), status.views, status.view);
  $("game-replay").href = `#/replay/${encodeURIComponent(status.replay)}?view=${status.seat}&step=${status.steps}`;
  $("game-text").textContent = status.text;
  const picture = $("game-picture");
  picture.hidden = !status.picture;
  if (status.picture) picture.src = `/api/games/${encodeURIComponent(status.name)}/picture?step=${status.steps}`;
  eventItems($("game-events"), status.events, status.players, null);
  const last = $("game-events").lastElementChild;
  if (last) last.scrollIntoView({ block: "nearest" });
  if (status.over) {
    $("status").textContent = `game over: ${outcomeText({ returns: status.result.returns, scores: status.result.scores })}`;
  } else {
    $("status").textContent = `you play seat ${status.seat}: ${status.legal.length ? "your move" : "waiting"}`;
  }
  let index = 0;
  $("actions").replaceChildren(
    ...status.legal.map((group) => {
      const box = document.createElement("fieldset");
      box.append(Object.assign(document.createElement("legend"), { textContent: group.group || "actions" }));
      for (const action of group.actions) {
        const button = document.createElement("button");
        button.dataset.action = action.action;
        const key = KEYS[index++];
        if (key) {
          button.dataset.key = key;
          button.append(Object.assign(document.createElement("kbd"), { textContent: key }));
        }
        button.append(action.text);
        button.title = action.label;
        button.addEventListener("click", () => move(action.action));
        box.append(button);
      }
      return box;
    }),
  );
}

async function move(action) {
  for (const button of $("actions").querySelectorAll("button")) button.disabled = true;
  const view = $("game-view").value;
  try {
    showGame(await api(`/api/games/${encodeURIComponent(live.name)}/actions?view=${encodeURIComponent(view)}`, {
      method: "POST",
      body: JSON.stringify({ action }),
    }));
    showError(null);
  } catch (error) {
    showError(error);
    showGame(live.status);
  }
}

$("game-view").addEventListener("change", () => {
  location.hash = `#/game/${live.name}?view=${encodeURIComponent($("game-view").value)}`;
});

// ------------------------------------------------------------------------------------------------ keys
document.addEventListener("keydown", (pressed) => {
  if (pressed.target.closest && pressed.target.closest("input, select, textarea")) return;
  if (!$("replay").hidden && player.header) {
    const moves = {
      ArrowRight: () => goTo(player.step + 1),
      ArrowLeft: () => goTo(player.step - 1),
      Home: () => goTo(0),
      End: () => goTo(player.header.steps),
      n: () => goTo(decisionStep(1)),
      p: () => goTo(decisionStep(-1)),
      " ": togglePlaying,
    };
    const action = moves[pressed.key];
    if (action) {
      pressed.preventDefault();
      action();
    }
  } else if (!$("game").hidden) {
    const button = $("actions").querySelector(`button[data-key="${CSS.escape(pressed.key)}"]`);
    if (button && !button.disabled) {
      pressed.preventDefault();
      button.click();
    }
  }
});

// ------------------------------------------------------------------------------------------------ routing
async function render() {
  const { path, params } = route();
  try {
    if (path.startsWith("/replay/")) await openReplay(decodeURIComponent(path.slice("/replay/".length)), params);
    else if (path.startsWith("/game/")) await openGame(decodeURIComponent(path.slice("/game/".length)), params);
    else await openHome();
    showError(null);
  } catch (error) {
    showError(error);
  }
  document.body.dataset.ready = location.hash; // what the browser tests wait for
}

window.addEventListener("hashchange", render);
render();
