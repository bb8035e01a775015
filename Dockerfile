# The site's image: daphne serving the ASGI app, static files by WhiteNoise.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    YATZY_VAR_DIR=/app/var \
    YATZY_SOLVER_CACHE=/app/var/solver

WORKDIR /app
RUN useradd --create-home --uid 1000 yatzy

# The locked dependencies first (their layer outlives changes to the code), hashes
# checked; then the project alone, built by the locked setuptools.
COPY requirements/site.txt ./requirements/
RUN pip install --require-hashes -r requirements/site.txt
COPY pyproject.toml README.md ./
COPY games ./games
COPY yatzy_site ./yatzy_site
COPY players ./players
RUN pip install --no-deps --no-build-isolation .

COPY manage.py ./
COPY templates ./templates
COPY jinja_templates ./jinja_templates
COPY static ./static
COPY locale ./locale

# collectstatic needs the production settings to load; these values exist only here.
RUN YATZY_PRODUCTION=1 SECRET_KEY=build-only ALLOWED_HOSTS=build \
    DATABASE_URL=postgres://build/build REDIS_URL=redis://build:6379/0 \
    python manage.py collectstatic --noinput \
 && mkdir -p /app/var/solver && chown -R yatzy /app/var

USER yatzy
ENV YATZY_PRODUCTION=1
EXPOSE 8000
# daphne, through `manage.py serve`: with YATZY_PROCESS set (Compose names web1, web2) it
# first takes off the sockets its predecessor of that name left counted, then becomes
# daphne with a listen queue long enough for a storm of reconnecting browsers.
CMD ["python", "manage.py", "serve", "--host", "0.0.0.0", "--port", "8000", "--proxy-headers"]
