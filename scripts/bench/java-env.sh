# Sourced by the benchmark scripts that run Java from mpi-runtime/bench: sets $java (a JDK 25) and the $flags array
# (the JVM flags Lazarus ranks run with: lazarus.jvm.flags in pom.xml, JobLauncher.RANK_JVM_FLAGS), and $BENCH.
# Expects $ROOT.
BENCH=$ROOT/mpi-runtime/bench/target
source "$ROOT/scripts/bench/jdk.sh"
[ -f "$BENCH/classes/META-INF/BenchmarkList" ] && [ -d "$BENCH/lib" ] || {
  echo "$(basename "$0"): $BENCH is not built (./mvnw -B package -DskipTests, or run without LAZARUS_NO_BUILD=1)" >&2
  exit 1
}
flags=(--enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector -Djava.library.path="${LAZARUS_OMPI_LIB:-/usr/lib/x86_64-linux-gnu}"
  --add-exports=java.base/sun.nio.ch=ALL-UNNAMED --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED
  --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow
  -Dchronicle.analytics.disable=true -Dorg.slf4j.simpleLogger.defaultLogLevel=warn)
