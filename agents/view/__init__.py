"""The browser viewer: watch any recorded game of any env, and play a seat against agents (`tabletop-view`).

`agents.view.app` is the web app (JSON over HTTP and a static page), `agents.view.cli` its command line; the optional
extra `view` installs what it needs (Starlette and uvicorn). The viewer knows no game: it reads replay records,
each game's observers, action labels and render module.
"""
