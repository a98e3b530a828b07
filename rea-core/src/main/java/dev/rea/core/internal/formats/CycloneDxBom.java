package dev.rea.core.internal.formats;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.ValueType;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.cyclonedx.Version;
import org.cyclonedx.exception.GeneratorException;
import org.cyclonedx.generators.BomGeneratorFactory;
import org.cyclonedx.model.Bom;
import org.cyclonedx.model.Component;
import org.cyclonedx.model.Hash;
import org.cyclonedx.model.Metadata;
import org.cyclonedx.model.Property;
import org.cyclonedx.model.component.ModelCard;
import org.cyclonedx.model.component.modelCard.ModelParameters;
import org.cyclonedx.model.metadata.ToolInformation;
import org.jspecify.annotations.Nullable;

/**
 * REA Evidence as a CycloneDX 1.6 JSON BOM (CONTRACT section 13, {@code --format cyclonedx}),
 * built and written with the CycloneDX Java library ({@code org.cyclonedx:cyclonedx-core-java}).
 *
 * <p>BOM: {@code bomFormat} CycloneDX, {@code specVersion} 1.6, {@code serialNumber} a name-based
 * UUID (RFC 4122 version 3) of the Evidence IDs it describes, so the same Evidence always gives
 * the same BOM; {@code version} 1; {@code metadata.timestamp} the Evidence's {@code observed_at}
 * (whole seconds); {@code metadata.tools.components} REA as an {@code application} with its
 * version.
 *
 * <p>One component of type {@code machine-learning-model} per file: {@code bom-ref} the Evidence
 * ID ({@code file-N} for unsigned Evidence), {@code name} the file's base name, {@code hashes} one
 * SHA-256 when the Evidence has a verified full digest (none otherwise: the header digest is not
 * the file's), {@code properties} in the {@code rea:} namespace ({@link #PROPERTY_NAMES}), and a
 * {@code modelCard} whose {@code modelParameters.modelArchitecture} is the GGUF {@code
 * general.architecture} string when the header declares one (safetensors headers declare no
 * architecture, so theirs have no model card). A model set ({@link ModelSet}) is one parent
 * component of the same type whose {@code components} are the members.
 */
public final class CycloneDxBom {
  /**
   * The names of the component properties, in the order written: {@code rea:format} ({@code
   * gguf}/{@code safetensors}), {@code rea:file_size} (bytes), {@code rea:header_sha256}, {@code
   * rea:evidence_id}, {@code rea:status} ({@code complete}/{@code partial}), {@code
   * rea:tensor_count}, {@code rea:parameter_count} (elements, summed over tensors), {@code
   * rea:byte_length} (tensor bytes, only when every tensor's length is known). A set's parent has
   * {@code rea:set_kind}, {@code rea:evidence_id}, {@code rea:member_count}, {@code
   * rea:tensor_count}, {@code rea:parameter_count}, {@code rea:byte_length} and {@code
   * rea:index_sha256} (safetensors index only). Each property is left out when its value is
   * unknown; numbers are decimal text.
   */
  public static final List<String> PROPERTY_NAMES =
      List.of(
          "rea:format",
          "rea:file_size",
          "rea:header_sha256",
          "rea:evidence_id",
          "rea:status",
          "rea:tensor_count",
          "rea:parameter_count",
          "rea:byte_length",
          "rea:set_kind",
          "rea:member_count",
          "rea:index_sha256");

  /** The GGUF metadata key whose string value is the declared architecture. */
  public static final String ARCHITECTURE_KEY = "general.architecture";

  private CycloneDxBom() {}

  /**
   * A model set (CONTRACT section 9) as the parent of its members' components.
   *
   * @param name the parent component's name (the index file's or the split set's base name)
   * @param kind {@code safetensors_index}, {@code gguf_split} or {@code single_file}
   * @param evidenceId the set record's Evidence ID, or null
   * @param observedAt the set's RFC 3339 observation time
   * @param indexSha256 the index file's SHA-256 (safetensors index), or null
   * @param members the members' records, in member order (at least one)
   */
  public record ModelSet(
      String name,
      String kind,
      @Nullable String evidenceId,
      String observedAt,
      @Nullable String indexSha256,
      List<EvidenceRecord> members) {
    public ModelSet {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(observedAt, "observedAt");
      members = List.copyOf(members);
      if (members.isEmpty()) {
        throw new IllegalArgumentException("a set has at least one member");
      }
    }
  }

  /**
   * A BOM with one component per file.
   *
   * @param files at least one record
   * @param toolVersion REA's version, for {@code metadata.tools}
   * @return the BOM's UTF-8 JSON
   */
  public static byte[] ofFiles(List<EvidenceRecord> files, String toolVersion) {
    if (files.isEmpty()) {
      throw new IllegalArgumentException("a BOM describes at least one file");
    }
    List<Component> components = new ArrayList<>(files.size());
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      components.add(fileComponent(files.get(i), "file-" + i));
      ids.add(identity(files.get(i)));
    }
    return write(bom(files.get(0).observedAt(), ids, toolVersion, components));
  }

  /**
   * A BOM with one parent component for the set, holding one component per member.
   *
   * @param set the set
   * @param toolVersion REA's version, for {@code metadata.tools}
   * @return the BOM's UTF-8 JSON
   */
  public static byte[] ofSet(ModelSet set, String toolVersion) {
    Component parent = new Component();
    parent.setType(Component.Type.MACHINE_LEARNING_MODEL);
    parent.setBomRef(set.evidenceId() == null ? "set" : set.evidenceId());
    parent.setName(set.name());
    List<Component> members = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    ids.add(set.evidenceId() == null ? set.name() : set.evidenceId());
    int tensors = 0;
    BigInteger parameters = BigInteger.ZERO;
    BigInteger bytes = BigInteger.ZERO;
    Set<String> architectures = new LinkedHashSet<>();
    for (int i = 0; i < set.members().size(); i++) {
      EvidenceRecord r = set.members().get(i);
      members.add(fileComponent(r, "member-" + i));
      ids.add(identity(r));
      tensors += r.totals().tensorCount();
      parameters = parameters.add(r.totals().parameterCount());
      bytes = bytes == null || r.totals().byteLength() == null ? null : bytes.add(r.totals().byteLength());
      String arch = architecture(r);
      if (arch != null) {
        architectures.add(arch);
      }
    }
    List<Property> p = new ArrayList<>();
    add(p, "rea:set_kind", set.kind());
    add(p, "rea:evidence_id", set.evidenceId());
    add(p, "rea:member_count", Integer.toString(set.members().size()));
    add(p, "rea:tensor_count", Integer.toString(tensors));
    add(p, "rea:parameter_count", parameters.toString());
    add(p, "rea:byte_length", bytes == null ? null : bytes.toString());
    add(p, "rea:index_sha256", set.indexSha256());
    parent.setProperties(p);
    // Members that declare an architecture must agree for the set to have one.
    if (architectures.size() == 1) {
      parent.setModelCard(modelCard(architectures.iterator().next()));
    }
    parent.setComponents(members);
    return write(bom(set.observedAt(), ids, toolVersion, List.of(parent)));
  }

  private static Component fileComponent(EvidenceRecord r, String fallbackRef) {
    Component c = new Component();
    c.setType(Component.Type.MACHINE_LEARNING_MODEL);
    c.setBomRef(r.evidenceId() == null ? fallbackRef : r.evidenceId());
    c.setName(InTotoAttestation.baseName(r.artifact().path()));
    if (r.subject() != null) {
      c.setHashes(List.of(new Hash(Hash.Algorithm.SHA_256, r.subject().sha256())));
    }
    List<Property> p = new ArrayList<>();
    add(p, "rea:format", r.artifact().format());
    add(p, "rea:file_size", Long.toString(r.artifact().fileSize()));
    add(p, "rea:header_sha256", r.artifact().headerSha256());
    add(p, "rea:evidence_id", r.evidenceId());
    add(p, "rea:status", r.status());
    add(p, "rea:tensor_count", Integer.toString(r.totals().tensorCount()));
    add(p, "rea:parameter_count", r.totals().parameterCount().toString());
    BigInteger bytes = r.totals().byteLength();
    add(p, "rea:byte_length", bytes == null ? null : bytes.toString());
    c.setProperties(p);
    String arch = architecture(r);
    if (arch != null) {
      c.setModelCard(modelCard(arch));
    }
    return c;
  }

  /** @return the declared {@value #ARCHITECTURE_KEY} when it is a string, else null */
  static @Nullable String architecture(EvidenceRecord r) {
    for (MetadataRow row : r.metadata()) {
      if (row.key().equals(ARCHITECTURE_KEY)
          && row.type() == ValueType.STRING
          && r.artifact().format().equals("gguf")
          && row.value() instanceof MetadataValue.StringValue s) {
        return s.value();
      }
    }
    return null;
  }

  private static ModelCard modelCard(String architecture) {
    ModelParameters parameters = new ModelParameters();
    parameters.setModelArchitecture(architecture);
    ModelCard card = new ModelCard();
    card.setModelParameters(parameters);
    return card;
  }

  private static void add(List<Property> to, String name, @Nullable String value) {
    if (value != null) {
      to.add(new Property(name, value));
    }
  }

  /** @return what names a record for the serial number: its Evidence ID, else its header digest */
  private static String identity(EvidenceRecord r) {
    if (r.evidenceId() != null) {
      return r.evidenceId();
    }
    return r.artifact().path() + "\n" + r.artifact().headerSha256();
  }

  private static Bom bom(
      String observedAt, List<String> ids, String toolVersion, List<Component> components) {
    Bom bom = new Bom();
    bom.setVersion(1);
    byte[] name = ("rea cyclonedx\n" + String.join("\n", ids)).getBytes(StandardCharsets.UTF_8);
    bom.setSerialNumber("urn:uuid:" + UUID.nameUUIDFromBytes(name));
    Metadata metadata = new Metadata();
    metadata.setTimestamp(Date.from(Instant.parse(observedAt)));
    Component tool = new Component();
    tool.setType(Component.Type.APPLICATION);
    tool.setName("REA");
    tool.setVersion(toolVersion);
    ToolInformation tools = new ToolInformation();
    tools.setComponents(List.of(tool));
    metadata.setToolChoice(tools);
    bom.setMetadata(metadata);
    bom.setComponents(components);
    return bom;
  }

  private static byte[] write(Bom bom) {
    try {
      return BomGeneratorFactory.createJson(Version.VERSION_16, bom)
          .toJsonString(false)
          .getBytes(StandardCharsets.UTF_8);
    } catch (GeneratorException e) {
      throw new IllegalStateException("the CycloneDX library could not write the BOM", e);
    }
  }
}
