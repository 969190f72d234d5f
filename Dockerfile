# The domino bot in a container: `docker build -t domino . && docker run -it domino`
# Tokens come from the environment (DISCORD_TOKEN, TELEGRAM_TOKEN); never bake them in.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY core ./core
COPY render ./render
COPY bot ./bot
COPY docs ./docs
RUN pip install --no-cache-dir '.[discord,telegram]'
RUN useradd --create-home domino
USER domino
VOLUME ["/home/domino/data"]
ENV DOMINO_DB=/home/domino/data/domino.sqlite
ENTRYPOINT ["domino"]
CMD ["bot"]
