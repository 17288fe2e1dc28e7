# Multi-stage: build a virtualenv with the project, then copy it into a slim runtime image.
FROM python:3.11-slim AS build
WORKDIR /srv/ratings
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY migrations ./migrations
RUN pip install --no-cache-dir --upgrade pip && pip install --no-cache-dir -e .

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 ratings
WORKDIR /srv/ratings
COPY --from=build /opt/venv /opt/venv
COPY --from=build /srv/ratings /srv/ratings
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    RATINGS_HOST=0.0.0.0 \
    RATINGS_PORT=8000 \
    RATINGS_DATABASE_URL=sqlite:////srv/ratings/data/ratings.db
RUN mkdir -p /srv/ratings/data && chown ratings:ratings /srv/ratings/data
USER ratings
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s CMD python -c "import urllib.request,os; urllib.request.urlopen(f'http://127.0.0.1:{os.environ.get(\"RATINGS_PORT\",\"8000\")}/healthz')"
# `ratings serve` runs the migrations, then granian.
CMD ["ratings", "serve"]
