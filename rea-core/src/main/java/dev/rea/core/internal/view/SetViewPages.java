package dev.rea.core.internal.view;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.view.SourceKind;
import dev.rea.core.view.ViewCollection;
import dev.rea.core.view.ViewPage;
import dev.rea.core.view.ViewRequest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Answers a view over a model set (CONTRACT section 9) with one page of the shape {@link
 * ViewPages} gives for one record, within the same 64 KiB budget:
 *
 * <ul>
 *   <li>{@code members}: the set record's member entries ({@code index}, {@code path}, ...);
 *       filter {@code indices};
 *   <li>{@code tensors} and {@code metadata}: every member's rows in member order, each with
 *       {@code member} (the member index) beside its own {@code index}; the filters of one record
 *       apply within each member ({@code indices} are the rows' own indices), {@code offset}
 *       counts matches over the whole set; {@code unknowns} entries carry {@code member} too;
 *   <li>{@code types}: the set record's type rows (over all members).
 * </ul>
 *
 * <p>{@code source} names the set: its {@code evidence_id}, {@code path} ({@code set.path}), the
 * members' {@code format} ({@code "mixed"} if they differ), {@code file_size} the sum of the
 * members' sizes, and {@code header_sha256} / {@code sha256} null (each member has its own).
 * Requested names, keys, labels or indices that match no row of any member give the {@code
 * unmatched_selection} warning. Thread-safe.
 */
public final class SetViewPages {
  private SetViewPages() {}

  /**
   * Answers a view.
   *
   * @param set the set record
   * @param members the members' indexed Evidence, in member order
   * @param view the view
   * @param source how the Evidence was supplied
   * @return the page
   * @throws ReaException {@code bad_view} for an invalid view
   */
  public static ViewPage answer(ModelSetRecord set, List<IndexedEvidence> members,
      ViewRequest view, SourceKind source) throws ReaException {
    view.validate();
    Page p = new Page(set, members, view, source);
    return p.build();
  }

  /** The matches of one collection over the set: (member, row) pairs in order. */
  private interface Matches {
    int total();

    /** @return an iterator from a match position: each element is member << 32 | row */
    PrimitiveIterator.OfLong from(int offset);

    List<String> unmatched();

    String unmatchedWhat();
  }

  private static final class Page {
    final ModelSetRecord set;
    final List<IndexedEvidence> members;
    final ViewRequest view;
    final SourceKind source;

    Page(ModelSetRecord set, List<IndexedEvidence> members, ViewRequest view, SourceKind source) {
      this.set = set;
      this.members = members;
      this.view = view;
      this.source = source;
    }

    ViewPage build() throws ReaException {
      Matches m = matches();
      PageWriter.Parent parent = new PageWriter.Parent(set.evidenceId(), set.set().path(),
          SetSummary.format(set), null, null, SetSummary.fileSize(set).toString(),
          set.coverage().header());
      PageWriter page = new PageWriter(parent, view, source, m.total(),
          m.unmatched().isEmpty() ? null : unmatched(m), set.warnings());
      PrimitiveIterator.OfLong it = m.from(view.offset());
      while (!page.full() && it.hasNext()) {
        long pair = it.nextLong();
        int k = (int) (pair >>> 32);
        int i = (int) pair;
        byte[] row = row(k, i, page.remaining());
        byte[] unknown = unknown(k, i);
        String omission = k < 0 ? null : ViewPages.omission(members.get(k), view.collection(), i);
        if (!page.fits(row, unknown, omission) && !page.isEmpty()) {
          break;
        }
        page.add(i, row, unknown, omission);
      }
      return page.finish();
    }

    private Matches matches() {
      ViewCollection c = view.collection();
      if (c == ViewCollection.MEMBERS) {
        return listMatches(set.members().size(), "indices");
      }
      if (c == ViewCollection.TYPES) {
        return typeMatches();
      }
      List<Selection> sels = new ArrayList<>(members.size());
      for (IndexedEvidence ev : members) {
        sels.add(Selection.of(ev, view));
      }
      return new MemberMatches(sels);
    }

    /** Rows 0..n-1 of the set record itself, filtered by {@code indices}. */
    private Matches listMatches(int n, String what) {
      List<Integer> rows = new ArrayList<>();
      List<String> unmatched = new ArrayList<>();
      if (view.indices() == null) {
        for (int i = 0; i < n; i++) {
          rows.add(i);
        }
      } else {
        for (int i : new java.util.TreeSet<>(view.indices())) {
          if (i < n) {
            rows.add(i);
          } else {
            unmatched.add(Integer.toString(i));
          }
        }
      }
      return new ListMatches(rows, unmatched, what);
    }

    private Matches typeMatches() {
      List<TypeRow> types = set.types();
      List<Integer> rows = new ArrayList<>();
      List<String> unmatched = new ArrayList<>();
      Set<String> labels = view.types() == null ? null : new LinkedHashSet<>(view.types());
      Set<Integer> wanted = view.indices() == null ? null : new java.util.HashSet<>(view.indices());
      for (int i = 0; i < types.size(); i++) {
        if ((labels == null || labels.contains(types.get(i).type()))
            && (wanted == null || wanted.contains(i))) {
          rows.add(i);
        }
      }
      if (labels != null) {
        for (String l : labels) {
          if (types.stream().noneMatch(t -> t.type().equals(l))) {
            unmatched.add(l);
          }
        }
        return new ListMatches(rows, unmatched, "types");
      }
      if (wanted != null) {
        for (int i : new java.util.TreeSet<>(wanted)) {
          if (i >= types.size()) {
            unmatched.add(Integer.toString(i));
          }
        }
      }
      return new ListMatches(rows, unmatched, "indices");
    }

    /** Member rows carry their member; set rows (members, types) do not ({@code k < 0}). */
    private byte[] row(int k, int i, int room) {
      ViewCollection c = view.collection();
      Predicate<String> in = view::selects;
      if (c == ViewCollection.MEMBERS) {
        return memberRow(set.members().get(i), in);
      }
      if (c == ViewCollection.TYPES) {
        return typeRow(i, set.types().get(i), in);
      }
      IndexedEvidence ev = members.get(k);
      byte[] row = ViewPages.row(ev, c, i, in);
      if (row.length + 16 > room) {
        row = ViewPages.stub(ev, view, i, room - 16);
      }
      return withMember(row, k);
    }

    private byte @Nullable [] unknown(int k, int i) {
      ViewCollection c = view.collection();
      if (k < 0 || c != ViewCollection.TENSORS) {
        return null;
      }
      byte[] u = ViewPages.unknown(members.get(k), c, i);
      return u == null ? null : withMember(u, k);
    }

    private byte[] memberRow(ModelSetRecord.Member m, Predicate<String> in) {
      // The set record's own writer gives every field; keep the selected ones.
      ByteArrayOutputStream out = new ByteArrayOutputStream(256);
      try (JsonGenerator g = EvidenceJson.generator(out)) {
        g.writeStartObject();
        g.writeNumberProperty("index", m.index());
        str(g, in, "path", m.path());
        str(g, in, "evidence_id", m.evidenceId());
        str(g, in, "format", m.format());
        str(g, in, "file_size", Long.toString(m.fileSize()));
        str(g, in, "header_sha256", m.headerSha256());
        str(g, in, "sha256", m.sha256());
        if (in.test("tensor_count")) {
          g.writeNumberProperty("tensor_count", m.tensorCount());
        }
        str(g, in, "parameter_count", m.parameterCount().toString());
        str(g, in, "byte_length", m.byteLength() == null ? null : m.byteLength().toString());
        g.writeEndObject();
      }
      return out.toByteArray();
    }

    private byte[] typeRow(int i, TypeRow t, Predicate<String> in) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(128);
      try (JsonGenerator g = EvidenceJson.generator(out)) {
        g.writeStartObject();
        g.writeNumberProperty("index", i);
        str(g, in, "type", t.type());
        if (in.test("type_id") && t.typeId() != null) {
          g.writeNumberProperty("type_id", t.typeId().longValue());
        }
        if (in.test("tensor_count")) {
          g.writeNumberProperty("tensor_count", t.tensorCount());
        }
        str(g, in, "parameter_count", t.parameterCount().toString());
        str(g, in, "byte_length", t.byteLength() == null ? null : t.byteLength().toString());
        g.writeEndObject();
      }
      return out.toByteArray();
    }

    private static void str(JsonGenerator g, Predicate<String> in, String name,
        @Nullable String v) {
      if (!in.test(name)) {
        return;
      }
      if (v == null) {
        g.writeNullProperty(name);
      } else {
        g.writeStringProperty(name, v);
      }
    }

    private Warning unmatched(Matches m) {
      List<String> missing = m.unmatched();
      boolean numbers = m.unmatchedWhat().equals("indices");
      StringBuilder b = new StringBuilder().append(missing.size()).append(" requested ")
          .append(m.unmatchedWhat()).append(" match no row of this set: ");
      for (int i = 0; i < Math.min(5, missing.size()); i++) {
        String s = missing.get(i);
        String shown = s.length() > 64 ? s.substring(0, 64) + "..." : s;
        b.append(i > 0 ? ", " : "").append(numbers ? shown : '"' + shown + '"');
      }
      if (missing.size() > 5) {
        b.append(", ...");
      }
      return new Warning("unmatched_selection", b.toString());
    }
  }

  /** @return {@code {"index":N,"member":K,...}} from a row that starts {@code {"index":N} */
  static byte[] withMember(byte[] row, int member) {
    int at = "{\"index\":".length();
    while (at < row.length && row[at] >= '0' && row[at] <= '9') {
      at++;
    }
    byte[] ins = (",\"member\":" + member).getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[row.length + ins.length];
    System.arraycopy(row, 0, out, 0, at);
    System.arraycopy(ins, 0, out, at, ins.length);
    System.arraycopy(row, at, out, at + ins.length, row.length - at);
    return out;
  }

  /** Rows of the set record itself. */
  private record ListMatches(List<Integer> rows, List<String> unmatched, String unmatchedWhat)
      implements Matches {
    @Override
    public int total() {
      return rows.size();
    }

    @Override
    public PrimitiveIterator.OfLong from(int offset) {
      return java.util.stream.LongStream.range(Math.min(offset, rows.size()), rows.size())
          .map(i -> (-1L << 32) | (rows.get((int) i) & 0xFFFFFFFFL))
          .iterator();
    }
  }

  /** Rows of every member, in member order. */
  private static final class MemberMatches implements Matches {
    private final List<Selection> sels;
    private final int total;

    MemberMatches(List<Selection> sels) {
      this.sels = sels;
      int t = 0;
      for (Selection s : sels) {
        t = Math.addExact(t, s.total());
      }
      this.total = t;
    }

    @Override
    public int total() {
      return total;
    }

    @Override
    public PrimitiveIterator.OfLong from(int offset) {
      return new PrimitiveIterator.OfLong() {
        int k;
        int skip = offset;
        PrimitiveIterator.@Nullable OfInt cur = advance();

        private PrimitiveIterator.@Nullable OfInt advance() {
          while (k < sels.size() && skip >= sels.get(k).total()) {
            skip -= sels.get(k).total();
            k++;
          }
          if (k >= sels.size()) {
            return null;
          }
          PrimitiveIterator.OfInt it = sels.get(k).from(skip);
          skip = 0;
          return it;
        }

        @Override
        public boolean hasNext() {
          while (cur != null && !cur.hasNext()) {
            k++;
            cur = advance();
          }
          return cur != null;
        }

        @Override
        public long nextLong() {
          if (!hasNext()) {
            throw new java.util.NoSuchElementException();
          }
          // hasNext() returned true: cur is set.
          return ((long) k << 32) | (java.util.Objects.requireNonNull(cur).nextInt() & 0xFFFFFFFFL);
        }
      };
    }

    /** Values requested that no member matched, in the first member's order. */
    @Override
    public List<String> unmatched() {
      if (sels.isEmpty()) {
        return List.of();
      }
      Set<String> common = new LinkedHashSet<>(sels.get(0).unmatched());
      for (int i = 1; i < sels.size(); i++) {
        common.retainAll(new java.util.HashSet<>(sels.get(i).unmatched()));
      }
      return new ArrayList<>(common);
    }

    @Override
    public String unmatchedWhat() {
      return sels.isEmpty() ? "names" : sels.get(0).unmatchedWhat();
    }
  }
}
