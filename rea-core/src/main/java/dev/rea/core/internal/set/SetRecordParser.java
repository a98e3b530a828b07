package dev.rea.core.internal.set;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Authentication;
import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.evidence.Request;
import dev.rea.core.evidence.Totals;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.evidence.RecordChecks;
import dev.rea.core.internal.io.StrictJson;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonToken;

/**
 * Builds a {@link ModelSetRecord} from a set record's JSON value, strictly: every field of
 * CONTRACT section 9 present with its JSON type (decimal strings where section 2 says so), no
 * other field, members indexed 0, 1, 2, ... in order. Every refusal is {@code invalid_input} /
 * {@code evidence_rejected} naming the field and its byte offset. Whether the record is the one
 * its identity and signature say is {@link SetBundleReader}'s part.
 */
final class SetRecordParser {
  private final String prefix;

  /** @param prefix prepended to field names ({@code "records[0]."} in a bundle) */
  SetRecordParser(String prefix) {
    this.prefix = prefix;
  }

  ModelSetRecord parse(StrictJson.Value v) throws ReaException {
    Map<String, StrictJson.Value> o = object(v, "",
        Set.of("schema", "evidence_id", "operation", "status", "observed_at", "request", "set",
            "members", "types", "totals", "coverage", "limitations", "warnings",
            "authentication"));
    String schema = string(o, "schema", "");
    if (!ModelSetRecord.SCHEMA.equals(schema)) {
      throw reject("schema", "schema must be " + ModelSetRecord.SCHEMA, o.get("schema"));
    }
    String op = string(o, "operation", "");
    if (!ModelSetRecord.OPERATION.equals(op)) {
      throw reject("operation", "operation must be " + ModelSetRecord.OPERATION, o.get("operation"));
    }
    String status = string(o, "status", "");
    if (!status.equals(ModelSetRecord.STATUS_COMPLETE) && !status.equals(ModelSetRecord.STATUS_PARTIAL)) {
      throw reject("status", "status must be complete or partial", o.get("status"));
    }
    Map<String, StrictJson.Value> req =
        object(o.get("request"), "request", Set.of("path", "hash", "assume_layout"));
    Request request = new Request(string(req, "path", "request."), string(req, "hash", "request."),
        req.containsKey("assume_layout") ? string(req, "assume_layout", "request.") : null);
    List<ModelSetRecord.Member> members = new ArrayList<>();
    List<StrictJson.Value> ms = array(o.get("members"), "members");
    for (int i = 0; i < ms.size(); i++) {
      members.add(member(ms.get(i), i));
    }
    List<TypeRow> types = new ArrayList<>();
    List<StrictJson.Value> ts = array(o.get("types"), "types");
    for (int i = 0; i < ts.size(); i++) {
      types.add(type(ts.get(i), "types[" + i + "]."));
    }
    Map<String, StrictJson.Value> tot = object(o.get("totals"), "totals",
        Set.of("tensor_count", "parameter_count", "byte_length"));
    Totals totals = new Totals(integer(tot, "tensor_count", "totals."),
        required(tot, "parameter_count", "totals."), big(tot, "byte_length", "totals.", true));
    Map<String, StrictJson.Value> cov = object(o.get("coverage"), "coverage",
        Set.of("header", "storage_sizes", "ranges", "digest", "final_identity"));
    Coverage coverage = new Coverage(string(cov, "header", "coverage."),
        string(cov, "storage_sizes", "coverage."), string(cov, "ranges", "coverage."),
        string(cov, "digest", "coverage."), string(cov, "final_identity", "coverage."));
    List<Limitation> limitations = new ArrayList<>();
    List<StrictJson.Value> ls = array(o.get("limitations"), "limitations");
    for (int i = 0; i < ls.size(); i++) {
      limitations.add(limitation(ls.get(i), "limitations[" + i + "]."));
    }
    List<Warning> warnings = new ArrayList<>();
    List<StrictJson.Value> ws = array(o.get("warnings"), "warnings");
    for (int i = 0; i < ws.size(); i++) {
      Map<String, StrictJson.Value> w = object(ws.get(i), "warnings[" + i + "]",
          Set.of("code", "message"));
      warnings.add(new Warning(string(w, "code", "warnings[" + i + "]."),
          string(w, "message", "warnings[" + i + "].")));
    }
    Authentication auth = null;
    if (o.containsKey("authentication")) {
      Map<String, StrictJson.Value> a = object(o.get("authentication"), "authentication",
          Set.of("scheme", "key_id", "signature"));
      auth = new Authentication(string(a, "scheme", "authentication."),
          string(a, "key_id", "authentication."), string(a, "signature", "authentication."));
    }
    String id = string(o, "evidence_id", "");
    return new ModelSetRecord(schema, id, op, status, string(o, "observed_at", ""), request,
        setInfo(o.get("set")), members, types, totals, coverage, limitations, warnings, auth);
  }

  private ModelSetRecord.SetInfo setInfo(StrictJson.@Nullable Value v) throws ReaException {
    Map<String, StrictJson.Value> s = object(v, "set", Set.of("kind", "path", "index"));
    String kind = string(s, "kind", "set.");
    if (SetKind.fromWire(kind) == null) {
      throw reject("set.kind", "kind must be safetensors_index, gguf_split or single_file",
          s.get("kind"));
    }
    StrictJson.Value ixv = require(s, "index", "set.");
    ModelSetRecord.IndexInfo index = null;
    if (!isNull(ixv)) {
      Map<String, StrictJson.Value> ix = object(ixv, "set.index",
          Set.of("path", "file_size", "sha256", "metadata"));
      List<ModelSetRecord.IndexEntry> entries = new ArrayList<>();
      List<StrictJson.Value> es = array(ix.get("metadata"), "set.index.metadata");
      for (int i = 0; i < es.size(); i++) {
        String p = "set.index.metadata[" + i + "].";
        Map<String, StrictJson.Value> e = object(es.get(i), p, Set.of("key", "value"));
        StrictJson.Value val = require(e, "value", p);
        String text = null;
        boolean bool = false;
        if (val instanceof StrictJson.ScalarValue sv && sv.token() != JsonToken.VALUE_NULL) {
          bool = sv.token() == JsonToken.VALUE_TRUE || sv.token() == JsonToken.VALUE_FALSE;
          if (!bool && sv.token() != JsonToken.VALUE_STRING) {
            throw reject(p + "value", "a value is a string, true, false or null", val);
          }
          text = sv.text();
        } else if (!(val instanceof StrictJson.ScalarValue)) {
          throw reject(p + "value", "a value is a string, true, false or null", val);
        }
        entries.add(new ModelSetRecord.IndexEntry(string(e, "key", p), text, bool));
      }
      index = new ModelSetRecord.IndexInfo(string(ix, "path", "set.index."),
          u63(ix, "file_size", "set.index."), string(ix, "sha256", "set.index."), entries);
    }
    return new ModelSetRecord.SetInfo(kind, string(s, "path", "set."), index);
  }

  private ModelSetRecord.Member member(StrictJson.Value v, int i) throws ReaException {
    String p = "members[" + i + "].";
    Map<String, StrictJson.Value> m = object(v, "members[" + i + "]",
        Set.of("index", "path", "evidence_id", "format", "file_size", "header_sha256", "sha256",
            "tensor_count", "parameter_count", "byte_length"));
    int index = integer(m, "index", p);
    if (index != i) {
      throw reject(p + "index", "member " + i + " has index " + index, m.get("index"));
    }
    String id = string(m, "evidence_id", p);
    if (!RecordChecks.EVIDENCE_ID.matcher(id).matches()) {
      throw reject(p + "evidence_id", "evidence_id must be sha256: and 64 lowercase hex digits",
          m.get("evidence_id"));
    }
    return new ModelSetRecord.Member(index, string(m, "path", p), id, string(m, "format", p),
        u63(m, "file_size", p), nullableString(m, "header_sha256", p),
        nullableString(m, "sha256", p), integer(m, "tensor_count", p),
        required(m, "parameter_count", p), big(m, "byte_length", p, true));
  }

  private TypeRow type(StrictJson.Value v, String p) throws ReaException {
    Map<String, StrictJson.Value> t = object(v, p, Set.of("type", "type_id", "tensor_count",
        "parameter_count", "byte_length"));
    Long typeId = t.containsKey("type_id") ? (long) integer(t, "type_id", p) : null;
    return new TypeRow(string(t, "type", p), typeId, integer(t, "tensor_count", p),
        required(t, "parameter_count", p), big(t, "byte_length", p, true));
  }

  private Limitation limitation(StrictJson.Value v, String p) throws ReaException {
    Map<String, StrictJson.Value> l = object(v, p,
        Set.of("code", "message", "tensor_indices", "type_id", "candidates",
            "candidates_fitting_ranges"));
    List<Integer> indices = null;
    if (l.containsKey("tensor_indices")) {
      indices = new ArrayList<>();
      for (StrictJson.Value x : array(l.get("tensor_indices"), p + "tensor_indices")) {
        indices.add(intOf(x, p + "tensor_indices"));
      }
    }
    List<String> candidates = strings(l, "candidates", p);
    List<String> fitting = strings(l, "candidates_fitting_ranges", p);
    Long typeId = l.containsKey("type_id") ? (long) integer(l, "type_id", p) : null;
    return new Limitation(string(l, "code", p), string(l, "message", p), indices, typeId,
        candidates, fitting);
  }

  /** @return the optional array of strings {@code name} of {@code o}, or null when absent */
  private @Nullable List<String> strings(Map<String, StrictJson.Value> o, String name, String p)
      throws ReaException {
    if (!o.containsKey(name)) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (StrictJson.Value x : array(o.get(name), p + name)) {
      out.add(stringOf(x, p + name));
    }
    return out;
  }

  // ------------------------------------------------------------------ value helpers

  private Map<String, StrictJson.Value> object(StrictJson.@Nullable Value v, String field,
      Set<String> allowed) throws ReaException {
    if (!(v instanceof StrictJson.ObjectValue o)) {
      throw reject(field.isEmpty() ? "record" : field, "expected an object", v);
    }
    for (Map.Entry<String, StrictJson.Value> e : o.properties().entrySet()) {
      if (!allowed.contains(e.getKey())) {
        throw reject(field.isEmpty() || field.endsWith(".") ? field + e.getKey()
                : field + "." + e.getKey(),
            "a set record has no such field", e.getValue());
      }
    }
    return o.properties();
  }

  private List<StrictJson.Value> array(StrictJson.@Nullable Value v, String field)
      throws ReaException {
    if (!(v instanceof StrictJson.ArrayValue a)) {
      throw reject(field, "expected an array", v);
    }
    return a.items();
  }

  private StrictJson.Value require(Map<String, StrictJson.Value> o, String name, String p)
      throws ReaException {
    StrictJson.Value v = o.get(name);
    if (v == null) {
      throw reject(p + name, "the field is missing", null);
    }
    return v;
  }

  private String string(Map<String, StrictJson.Value> o, String name, String p)
      throws ReaException {
    return stringOf(require(o, name, p), p + name);
  }

  private String stringOf(StrictJson.Value v, String field) throws ReaException {
    if (v instanceof StrictJson.ScalarValue s && s.token() == JsonToken.VALUE_STRING) {
      return s.text();
    }
    throw reject(field, "expected a string", v);
  }

  private @Nullable String nullableString(Map<String, StrictJson.Value> o, String name, String p)
      throws ReaException {
    StrictJson.Value v = require(o, name, p);
    return isNull(v) ? null : stringOf(v, p + name);
  }

  private int integer(Map<String, StrictJson.Value> o, String name, String p)
      throws ReaException {
    return intOf(require(o, name, p), p + name);
  }

  private int intOf(StrictJson.Value v, String field) throws ReaException {
    if (v instanceof StrictJson.ScalarValue s && s.token() == JsonToken.VALUE_NUMBER_INT
        && StrictJson.isCanonicalDecimal(s.text(), false) && s.text().length() <= 10) {
      long x = Long.parseLong(s.text());
      if (x <= Integer.MAX_VALUE) {
        return (int) x;
      }
    }
    throw reject(field, "expected an integer number from 0 to 2^31-1", v);
  }

  private BigInteger required(Map<String, StrictJson.Value> o, String name, String p)
      throws ReaException {
    BigInteger b = big(o, name, p, false);
    if (b == null) {
      throw reject(p + name, "expected an unsigned decimal string", o.get(name));
    }
    return b;
  }

  private long u63(Map<String, StrictJson.Value> o, String name, String p) throws ReaException {
    BigInteger b = required(o, name, p);
    if (b.bitLength() > 63) {
      throw reject(p + name, "value exceeds 2^63-1", o.get(name));
    }
    return b.longValueExact();
  }

  private @Nullable BigInteger big(Map<String, StrictJson.Value> o, String name, String p,
      boolean nullable) throws ReaException {
    StrictJson.Value v = require(o, name, p);
    if (nullable && isNull(v)) {
      return null;
    }
    if (v instanceof StrictJson.ScalarValue s && s.token() == JsonToken.VALUE_STRING
        && isDecimal(s.text())) {
      return new BigInteger(s.text());
    }
    throw reject(p + name, "expected an unsigned decimal string", v);
  }

  /** @return true for 0 or digits without a leading zero, at most 40 of them */
  private static boolean isDecimal(String s) {
    if (s.isEmpty() || s.length() > 40 || (s.charAt(0) == '0' && s.length() > 1)) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static boolean isNull(StrictJson.Value v) {
    return v instanceof StrictJson.ScalarValue s && s.token() == JsonToken.VALUE_NULL;
  }

  private ReaException reject(String field, String reason, StrictJson.@Nullable Value at) {
    return RecordChecks.reject(prefix + field, reason, at == null ? -1 : at.offset());
  }
}
