# Sourced by the benchmark scripts: sets $java to a JDK 25 (the one scripts/setup recorded, else JAVA_HOME, else the
# first under /usr/lib/jvm), or exits with a one-line error.
java=""
env_file=${LAZARUS_CACHE:-$HOME/.cache/lazarus}/env
if [ -f "$env_file" ]; then java=$(sed -n 's/^JAVA_HOME=//p' "$env_file")/bin/java; fi
if [ ! -x "$java" ] && [ -n "${JAVA_HOME:-}" ]; then java=$JAVA_HOME/bin/java; fi
if [ ! -x "$java" ]; then java=$(ls -d /usr/lib/jvm/*25*/bin/java 2>/dev/null | head -n 1); fi
[ -x "$java" ] || { echo "$(basename "$0"): no JDK 25 found (set JAVA_HOME)" >&2; exit 1; }
