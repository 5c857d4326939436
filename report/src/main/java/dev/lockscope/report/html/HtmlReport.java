package dev.lockscope.report.html;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The interactive report: one self-contained HTML page (no network access when viewed) made of the
 * template {@code report.html}, its stylesheet and script, the vendor bundle built by
 * {@code scripts/build-web.sh}, and the report document embedded as JSON (its {@code blame} packed
 * by {@link BlamePacking}), which the page's script renders. See docs/html-report.md.
 */
public final class HtmlReport {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String[] RESOURCES = {"report.html", "report.css", "report.js", "vendor.css", "vendor.min.js"};

    private HtmlReport() {
    }

    public static String render(ObjectNode doc) {
        Map<String, String> parts = new java.util.HashMap<>();
        for (String name : RESOURCES) {
            parts.put(name, resource(name));
        }
        ObjectNode embedded = doc.deepCopy();
        JsonNode blame = embedded.remove("blame");
        if (blame != null && blame.isArray()) {
            embedded.set("blamePacked", BlamePacking.pack(blame));
        }
        String json;
        try {
            json = MAPPER.writeValueAsString(embedded);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the report document", e);
        }
        // '<' occurs in JSON only inside strings, where \u003c means the same: thread or class names
        // can then never close the <script> element that holds the document.
        json = json.replace("<", "\\u003c");
        String title = doc.path("recording").path("path").asText("recording");
        String page = parts.get("report.html");
        // One pass over the markers, so text inserted for one marker is never searched for another.
        StringBuilder out = new StringBuilder(page.length() + json.length() + 100_000);
        int at = 0;
        while (true) {
            int open = page.indexOf("{{", at);
            if (open < 0) {
                break;
            }
            int close = page.indexOf("}}", open);
            out.append(page, at, open);
            String marker = page.substring(open + 2, close);
            out.append(switch (marker) {
                case "title" -> escapeHtml(title);
                case "data" -> json;
                default -> inline(parts.get(marker), marker);
            });
            at = close + 2;
        }
        out.append(page, at, page.length());
        return out.toString();
    }

    private static String inline(String text, String name) {
        if (text == null) {
            throw new IllegalStateException("report.html names an unknown part: " + name);
        }
        if (text.contains("</script") || text.contains("</style")) {
            throw new IllegalStateException(name + " would close its element early: rebuild it with scripts/build-web.sh");
        }
        return text;
    }

    private static String escapeHtml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String resource(String name) {
        try (InputStream in = HtmlReport.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name + " in lockscope-report");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
