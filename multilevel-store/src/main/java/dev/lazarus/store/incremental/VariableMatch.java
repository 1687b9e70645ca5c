package dev.lazarus.store.incremental;

import dev.lazarus.store.CorruptCheckpointException;
import dev.lazarus.store.Variable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Matches the variables a manifest holds to the variables a rank protects, by name and type (recovery invariant 4):
 * never by position, since two runs of a job may protect the same variables in different orders.
 */
final class VariableMatch {

    private VariableMatch() {
    }

    /**
     * @param stored    the manifest's variables, indexed as its chunks refer to them
     * @param wanted    the protected variables, in the caller's region order
     * @param version   the version, named in the message
     * @param rank      the rank, named in the message
     * @return for each stored variable, the index of the protected variable of the same name
     * @throws CorruptCheckpointException naming the variables missing on either side or differing in type or shape
     */
    static int[] regionIndices(List<Variable> stored, List<Variable> wanted, long version, int rank)
            throws CorruptCheckpointException {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < wanted.size(); i++) {
            index.put(wanted.get(i).name(), i);
        }
        int[] regionOf = new int[stored.size()];
        List<String> differing = new ArrayList<>();
        TreeSet<String> notProtected = new TreeSet<>();
        for (int v = 0; v < stored.size(); v++) {
            Variable variable = stored.get(v);
            Integer region = index.get(variable.name());
            if (region == null) {
                notProtected.add(variable.name());
                continue;
            }
            regionOf[v] = region;
            if (!wanted.get(region).equals(variable)) {
                differing.add(variable + " in the checkpoint, " + wanted.get(region) + " protected");
            }
        }
        TreeSet<String> missing = new TreeSet<>(index.keySet());
        for (Variable variable : stored) {
            missing.remove(variable.name());
        }
        if (!notProtected.isEmpty() || !missing.isEmpty() || !differing.isEmpty()) {
            throw new CorruptCheckpointException("version " + version + " rank " + rank
                    + ": variables do not match the protected ones:"
                    + (missing.isEmpty() ? "" : " not in the checkpoint " + missing)
                    + (notProtected.isEmpty() ? "" : " not protected " + notProtected)
                    + (differing.isEmpty() ? "" : " differing " + differing));
        }
        return regionOf;
    }
}
