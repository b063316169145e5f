package io.hpcscale.common.json;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * A Jackson mapper that accepts the invalid JSON schedulers are known to print: bare numbers with leading zeros
 * (PBS {@code Variable_List} values from {@code qsub -V}), unescaped control characters, backslashes before
 * ordinary characters, and NaN/Infinity. Numbers of any length are read as big integers.
 */
public final class LenientJson {
    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS)
            .enable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS)
            .enable(JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
            .build();

    private LenientJson() {
    }

    public static JsonMapper mapper() {
        return MAPPER;
    }
}
