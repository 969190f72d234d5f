# The domino bot in a container.
#   docker build -t domino .
#   docker run -d -e TELEGRAM_TOKEN=... -v domino-data:/home/domino/data domino   # the bots
#   docker run -it -v domino-data:/home/domino/data domino                        # console chat
# Tokens come from the environment (DISCORD_TOKEN, TELEGRAM_TOKEN); never bake them in.
# tests/test_dockerfile.py follows these steps without Docker: keep the two in step.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY core ./core
COPY render ./render
# bot/ holds the Discord Activity's bundle already built (bot/web/static/discord-sdk.js, from
# tools/build_activity.sh, checked by .ci/run): the image needs no Node.js
COPY bot ./bot
COPY docs ./docs
RUN pip install --no-cache-dir '.[discord,telegram]'
# The volume's mount point must exist and belong to the bot's user before VOLUME, or Docker
# creates it owned by root and the bot cannot create its database there.
RUN useradd --create-home domino && mkdir -p /home/domino/data \
    && chown domino:domino /home/domino/data
USER domino
WORKDIR /home/domino/data
VOLUME ["/home/domino/data"]
# With no token and no terminal, DOMINO_CONSOLE=tty makes the bot say which variables to set.
ENV DOMINO_DB=/home/domino/data/domino.sqlite \
    DOMINO_PICTURES=off \
    DOMINO_CONSOLE=tty
# The process answers on the web table's /healthz (when DOMINO_WEB serves it; without the web
# table, Docker's own watch of the process is the check). /readyz says more: docs/deploy.md.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["python", "-c", "import os, sys, urllib.request; w = os.environ.get('DOMINO_WEB', 'off').strip(); w in ('', 'off') and sys.exit(0); urllib.request.urlopen('http://127.0.0.1:%s/healthz' % w.rpartition(':')[2], timeout=4)"]
# docker stop sends SIGTERM: the bot stops cleanly within 10 s (docker's default grace period)
STOPSIGNAL SIGTERM
ENTRYPOINT ["domino"]
CMD ["bot"]
