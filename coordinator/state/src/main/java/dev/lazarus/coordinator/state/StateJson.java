package dev.lazarus.coordinator.state;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one JSON mapping of the state records. Unknown fields are ignored, so a state written by a newer Lazarus still
 * reads; a value not measured yet is null.
 */
final class StateJson {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private StateJson() {
    }

    static String write(Object record) {
        try {
            return MAPPER.writeValueAsString(record);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + record + ": " + e.getOriginalMessage(), e);
        }
    }

    /** @throws IllegalArgumentException one line naming what is wrong with {@code json} */
    static <T> T read(String json, Class<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a " + type.getSimpleName() + " record: "
                    + e.getOriginalMessage());
        }
    }

    static boolean isObject(String json) {
        try {
            JsonNode node = MAPPER.readTree(json);
            return node != null && node.isObject();
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    /** @return the state as one JSON document, for {@code lazarus status --json} */
    static String pretty(Object document) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
