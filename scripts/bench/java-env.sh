# Sourced by the benchmark scripts that run Java from mpi-runtime/bench: sets $java (a JDK 25) and the $flags array
# (the JVM flags Lazarus ranks run with: lazarus.jvm.flags in pom.xml, JobLauncher.RANK_JVM_FLAGS), and $BENCH.
# Expects $ROOT.
BENCH=$ROOT/mpi-runtime/bench/target
java=""
env_file=${LAZARUS_CACHE:-$HOME/.cache/lazarus}/env
if [ -f "$env_file" ]; then java=$(sed -n 's/^JAVA_HOME=//p' "$env_file")/bin/java; fi
if [ ! -x "$java" ] && [ -n "${JAVA_HOME:-}" ]; then java=$JAVA_HOME/bin/java; fi
if [ ! -x "$java" ]; then java=$(ls -d /usr/lib/jvm/*25*/bin/java 2>/dev/null | head -n 1); fi
[ -x "$java" ] || { echo "$(basename "$0"): no JDK 25 found (set JAVA_HOME)" >&2; exit 1; }
[ -f "$BENCH/classes/META-INF/BenchmarkList" ] && [ -d "$BENCH/lib" ] || {
  echo "$(basename "$0"): $BENCH is not built (./mvnw -B package -DskipTests, or run without LAZARUS_NO_BUILD=1)" >&2
  exit 1
}
flags=(--enable-native-access=ALL-UNNAMED -Djava.library.path="${LAZARUS_OMPI_LIB:-/usr/lib/x86_64-linux-gnu}"
  --add-exports=java.base/sun.nio.ch=ALL-UNNAMED --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow
  -Dchronicle.analytics.disable=true -Dorg.slf4j.simpleLogger.defaultLogLevel=warn)
