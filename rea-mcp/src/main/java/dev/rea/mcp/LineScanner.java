package dev.rea.mcp;

import dev.rea.core.text.JacksonReasons;
import dev.rea.core.text.Utf8;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.async.ByteArrayFeeder;
import tools.jackson.core.json.DupDetector;
import tools.jackson.core.json.JsonFactory;

/**
 * Checks one inbound line of JSON-RPC incrementally, without keeping its bytes, and notes the few
 * members the server acts on before the SDK sees the line: the top-level {@code jsonrpc}, {@code
 * id}, {@code method}, {@code result}/{@code error} (and {@code error.code}/{@code
 * error.message}), and inside {@code params}: {@code name} (the tool of a {@code tools/call}),
 * {@code requestId} (of {@code notifications/cancelled}) and the types of {@code arguments} and
 * {@code _meta}.
 *
 * <p>What the MCP Java SDK 2.1.0 cannot take, and so must never see (each of these ends its read
 * loop: {@code McpSchema.deserializeJsonRpcMessage} throws and the stdio transport stops
 * reading), is classified {@link Kind#INVALID} or {@link Kind#BAD_RESPONSE}:
 *
 * <ul>
 *   <li>an {@code id} that is not a JSON string or a JSON integer within the signed 64-bit range
 *       (the SDK's {@code JSONRPCRequest}/{@code JSONRPCResponse} accept only {@code String},
 *       {@code Integer} and {@code Long}): {@code 1.5}, {@code 1.0}, {@code 1e2}, {@code 2^63},
 *       {@code true}, {@code null}, objects and arrays;
 *   <li>a response whose {@code result} is null, or whose {@code error} is not an object with an
 *       integer {@code code} (32-bit) and a string {@code message};
 *   <li>duplicate member names at any depth. The SDK's mapper keeps the last of them, so the
 *       server and the SDK could disagree about a message's id or method. They are found with
 *       Jackson's own duplicate detector ({@link DupDetector}, the detector behind {@code
 *       StreamReadFeature.STRICT_DUPLICATE_DETECTION}, comparing names after unescaping), driven
 *       here rather than through the parser feature so that scanning continues past the
 *       duplicate and the message's id can still be reported.
 * </ul>
 *
 * <p>Feed bytes with {@link #feed}, then call {@link #finish}. The JSON is tokenised by Jackson's
 * non-blocking parser with its default read constraints (nesting depth 500, strings up to 100
 * million characters), which are the constraints the SDK applies when it parses the same line,
 * so a line that passes here cannot fail the SDK's tokeniser. Not thread-safe; one instance per
 * line.
 */
final class LineScanner {
  private static final JsonFactory FACTORY = JsonFactory.builder().build();

  /** What kind of JSON-RPC message the line is. */
  enum Kind {
    REQUEST,
    NOTIFICATION,
    RESPONSE,
    /** Valid JSON that is not a JSON-RPC 2.0 message the server accepts (-32600). */
    INVALID,
    /**
     * Valid JSON shaped like a response ({@code result} or {@code error}, no {@code method}) that
     * the SDK cannot take. Dropped without an answer: a response is never answered, and an error
     * reply to a client's bad error response could start an endless exchange.
     */
    BAD_RESPONSE,
    /** Not JSON, or more than one JSON value (-32700). */
    MALFORMED,
    /** Only whitespace. */
    BLANK
  }

  /** Which depth-1 object the parser is in. */
  private enum Section {
    NONE,
    PARAMS,
    ERROR
  }

  private final JsonParser parser;
  private final ByteArrayFeeder feeder;
  private @Nullable String failure;
  /** Whether {@link #failure} is a read constraint (nesting, string length), not bad syntax. */
  private boolean overLimits;
  private int depth;
  private int roots;
  private long containers;
  private static final String NOT_UTF8 =
      "the line is not well-formed UTF-8 (an invalid byte, an overlong form, a surrogate or a"
          + " code point above U+10FFFF)";

  /** A UTF-8 sequence a fed chunk ended inside, well formed so far (at most 3 of 4 bytes). */
  private final byte[] utf8Carry = new byte[4];

  private int utf8CarryLength;

  /** The line's first bytes, to refuse a byte order mark ({@link #feed}). */
  private final byte[] head = new byte[3];
  private int headLength;
  private boolean sawToken;
  private boolean rootArray;
  private boolean rootScalar;
  private @Nullable String topName;
  private @Nullable String innerName;
  private Section section = Section.NONE;
  /** Duplicate detectors of the open objects, by depth (index 1 is the top-level object). */
  private DupDetector[] dups = new DupDetector[8];
  private boolean[] isObject = new boolean[8];
  private @Nullable String duplicate;
  /** Whether a string value holds an unpaired surrogate (escaped: the bytes are checked apart). */
  private boolean loneSurrogate;
  private @Nullable String jsonrpc;
  private boolean jsonrpcBad;
  private @Nullable RpcId id;
  private boolean idPresent;
  private boolean idBad;
  private boolean idDuplicated;
  private @Nullable String method;
  private boolean methodBad;
  private boolean hasResult;
  private boolean resultNull;
  private boolean hasError;
  private boolean errorBad;
  private boolean errorCode;
  private boolean errorMessage;
  private int paramsShape; // 0 absent, 1 object, 2 array, 3 other
  private @Nullable String toolName;
  private boolean toolNameBad;
  private int argumentsShape; // 0 absent, 1 object, 3 other
  private boolean metaBad;
  private @Nullable RpcId cancelRequestId;

  LineScanner() {
    parser = FACTORY.createNonBlockingByteArrayParser(ObjectReadContext.empty());
    feeder = (ByteArrayFeeder) parser.nonBlockingInputFeeder();
  }

  /** Feeds {@code len} bytes; the array may be reused once this returns. */
  void feed(byte[] buf, int off, int len) {
    if (failure != null || len == 0) {
      return;
    }
    checkUtf8(buf, off, len);
    if (failure != null) {
      return;
    }
    if (headLength < head.length) {
      int n = Math.min(len, head.length - headLength);
      System.arraycopy(buf, off, head, headLength, n);
      headLength += n;
      if (headLength == head.length && isByteOrderMark(head)) {
        // Jackson's parser skips a leading BOM, but the SDK's does not: the line would end its
        // read loop (and so the session). JSON-RPC text has no BOM.
        failure = "the line starts with a byte order mark (U+FEFF), which is not JSON-RPC";
        return;
      }
    }
    try {
      feeder.feedInput(buf, off, off + len);
      pump();
    } catch (JacksonException e) {
      failed(e);
    }
  }

  /**
   * Checks that the bytes fed so far are well-formed UTF-8 (RFC 3629: no overlong forms, no
   * surrogates, nothing above U+10FFFF) with {@link Utf8#scan}, carrying a sequence that a chunk
   * ends inside into the next one. Jackson's parser refuses some ill-formed bytes (0xFF, an
   * encoded surrogate) but decodes overlong forms ({@code C0 AF} as {@code /}), which the SDK
   * would then act on: a path or a hash mode spelt with bytes no other UTF-8 reader accepts.
   */
  private void checkUtf8(byte[] buf, int off, int len) {
    int start = off;
    int end = off + len;
    if (utf8CarryLength > 0) {
      int lead = utf8Carry[0] & 0xFF;
      int total = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
      int take = Math.min(len, total - utf8CarryLength);
      System.arraycopy(buf, off, utf8Carry, utf8CarryLength, take);
      utf8CarryLength += take;
      int r = Utf8.scan(utf8Carry, 0, utf8CarryLength);
      if (r >= 0) {
        failure = NOT_UTF8;
        return;
      }
      if (r != Utf8.VALID) {
        return; // still inside the sequence, well formed so far (all of this chunk was taken)
      }
      utf8CarryLength = 0;
      start = off + take;
    }
    int r = Utf8.scan(buf, start, end);
    if (r >= 0) {
      failure = NOT_UTF8;
    } else if (r != Utf8.VALID) {
      int from = -(r + 2);
      utf8CarryLength = end - from;
      System.arraycopy(buf, from, utf8Carry, 0, utf8CarryLength);
    }
  }

  /** Ends the line; after this the accessors describe it. */
  void finish() {
    if (failure == null && utf8CarryLength > 0) {
      failure = NOT_UTF8;
    }
    if (failure == null) {
      try {
        feeder.endOfInput();
        pump();
      } catch (JacksonException e) {
        failed(e);
      }
    }
    if (failure == null && sawToken && depth != 0) {
      failure = "the JSON value is incomplete";
    }
    parser.close();
  }

  private void pump() {
    JsonToken t;
    while ((t = parser.nextToken()) != null && t != JsonToken.NOT_AVAILABLE) {
      onToken(t);
      if (failure != null) {
        return;
      }
    }
  }

  private void onToken(JsonToken t) {
    sawToken = true;
    if (depth == 0) {
      roots++;
      if (roots > 1) {
        failure = "more than one JSON value on the line";
        return;
      }
    }
    switch (t) {
      case START_OBJECT, START_ARRAY -> {
        containers++;
        boolean object = t == JsonToken.START_OBJECT;
        if (depth == 0 && !object) {
          rootArray = true;
        } else if (depth == 1) {
          onTopContainer(object);
        } else if (depth == 2) {
          onInnerContainer(object);
        }
        depth++;
        open(object);
      }
      case END_OBJECT, END_ARRAY -> {
        depth--;
        if (depth == 1) {
          section = Section.NONE;
        }
      }
      case PROPERTY_NAME -> {
        String name = parser.currentName();
        checkDuplicate(name);
        if (depth == 1) {
          topName = name;
        } else if (depth == 2) {
          innerName = name;
        }
      }
      default -> {
        if (t == JsonToken.VALUE_STRING && !loneSurrogate && hasLoneSurrogate()) {
          loneSurrogate = true;
        }
        if (depth == 0) {
          rootScalar = true;
        } else if (depth == 1) {
          onTopScalar(t);
        } else if (depth == 2) {
          onInnerScalar(t);
        }
      }
    }
  }

  /** Notes that a container was opened at {@link #depth}. */
  private void open(boolean object) {
    if (depth >= isObject.length) {
      int n = Math.max(depth + 1, isObject.length * 2);
      isObject = Arrays.copyOf(isObject, n);
      dups = Arrays.copyOf(dups, n);
    }
    isObject[depth] = object;
    if (object) {
      DupDetector d = dups[depth];
      if (d == null) {
        dups[depth] = DupDetector.rootDetector(parser);
      } else {
        d.reset();
      }
    }
  }

  private void checkDuplicate(String name) {
    DupDetector d = dups[depth];
    if (!isObject[depth] || d == null || !d.isDup(name)) {
      return;
    }
    if (duplicate == null) {
      duplicate = parser.streamReadContext().pathAsPointer().toString();
    }
    if (depth == 1 && name.equals("id")) {
      idDuplicated = true;
    }
  }

  private void onTopContainer(boolean object) {
    String n = topName == null ? "" : topName;
    switch (n) {
      case "params" -> {
        paramsShape = object ? 1 : 2;
        section = object ? Section.PARAMS : Section.NONE;
      }
      case "id" -> {
        idPresent = true;
        idBad = true;
      }
      case "method" -> methodBad = true;
      case "jsonrpc" -> jsonrpcBad = true;
      case "result" -> hasResult = true;
      case "error" -> {
        hasError = true;
        errorBad |= !object;
        section = object ? Section.ERROR : Section.NONE;
      }
      default -> {}
    }
  }

  private void onInnerContainer(boolean object) {
    String n = innerName == null ? "" : innerName;
    if (section == Section.PARAMS) {
      switch (n) {
        case "arguments" -> argumentsShape = object ? 1 : 3;
        case "name" -> toolNameBad = true;
        case "_meta" -> metaBad |= !object;
        default -> {}
      }
    } else if (section == Section.ERROR && (n.equals("code") || n.equals("message"))) {
      errorBad = true;
    }
  }

  private void onTopScalar(JsonToken t) {
    String n = topName == null ? "" : topName;
    switch (n) {
      case "jsonrpc" -> {
        if (t == JsonToken.VALUE_STRING) {
          jsonrpc = parser.getString();
        } else {
          jsonrpcBad = true;
        }
      }
      case "id" -> {
        idPresent = true;
        id = idOf(t);
        idBad = id == null;
      }
      case "method" -> {
        if (t == JsonToken.VALUE_STRING) {
          method = parser.getString();
        } else {
          methodBad = true;
        }
      }
      case "params" -> paramsShape = 3;
      case "result" -> {
        hasResult = true;
        resultNull = t == JsonToken.VALUE_NULL;
      }
      case "error" -> {
        hasError = true;
        errorBad = true;
      }
      default -> {}
    }
  }

  private void onInnerScalar(JsonToken t) {
    String n = innerName == null ? "" : innerName;
    if (section == Section.PARAMS) {
      switch (n) {
        case "name" -> {
          if (t == JsonToken.VALUE_STRING) {
            toolName = parser.getString();
          } else {
            toolNameBad = true;
          }
        }
        case "requestId" -> cancelRequestId = idOf(t);
        case "arguments" -> argumentsShape = t == JsonToken.VALUE_NULL ? 0 : 3;
        case "_meta" -> metaBad |= t != JsonToken.VALUE_NULL;
        default -> {}
      }
    } else if (section == Section.ERROR) {
      switch (n) {
        case "code" -> {
          boolean ok =
              t == JsonToken.VALUE_NUMBER_INT
                  && parser.getNumberType() == JsonParser.NumberType.INT;
          errorCode = ok;
          errorBad |= !ok;
        }
        case "message" -> {
          errorMessage = t == JsonToken.VALUE_STRING;
          errorBad |= !errorMessage;
        }
        default -> {}
      }
    }
  }

  /**
   * @return the id for a JSON string of whole characters, or a JSON integer within the signed
   *     64-bit range; null for anything else (the SDK takes only String, Integer and Long ids). A
   *     string holding a lone surrogate ({@code "\ud800"}, escaped: the bytes are checked apart)
   *     is unusable too: it cannot be written back as UTF-8, and the SDK's writer answered it
   *     under the id {@code "?"}, which the client never sent.
   */
  private @Nullable RpcId idOf(JsonToken t) {
    if (t == JsonToken.VALUE_STRING) {
      String text = parser.getString();
      return Utf8.findLoneSurrogate(text, 0, text.length()) < 0 ? new RpcId(true, text) : null;
    }
    if (t == JsonToken.VALUE_NUMBER_INT) {
      JsonParser.NumberType type = parser.getNumberType();
      if (type == JsonParser.NumberType.INT || type == JsonParser.NumberType.LONG) {
        return new RpcId(false, parser.getText());
      }
    }
    return null;
  }

  /**
   * @return whether the current string value holds a surrogate that is not half of a pair (only
   *     an escape can put one there: the bytes are well-formed UTF-8, {@link #checkUtf8})
   */
  private boolean hasLoneSurrogate() {
    int from = parser.getStringOffset();
    return Utf8.findLoneSurrogate(
            parser.getStringCharacters(), from, from + parser.getStringLength())
        >= 0;
  }

  private boolean responseShaped() {
    return method == null && !methodBad && (hasResult || hasError);
  }

  private static boolean isByteOrderMark(byte[] b) {
    return (b[0] & 0xFF) == 0xEF && (b[1] & 0xFF) == 0xBB && (b[2] & 0xFF) == 0xBF;
  }

  /** @return the JSON objects and arrays the line opened (all of them, at any depth) */
  long containers() {
    return containers;
  }

  /** @return the message kind; call after {@link #finish} */
  Kind kind() {
    if (failure != null) {
      return Kind.MALFORMED;
    }
    if (!sawToken) {
      return Kind.BLANK;
    }
    if (rootArray || rootScalar) {
      return Kind.INVALID;
    }
    boolean bad =
        duplicate != null
            || loneSurrogate
            || jsonrpcBad
            || !"2.0".equals(jsonrpc)
            || idBad
            || idDuplicated
            || methodBad;
    if (responseShaped()) {
      boolean ok =
          !bad
              && idPresent
              && (hasResult ^ hasError)
              && !resultNull
              && (!hasError || (!errorBad && errorCode && errorMessage));
      return ok ? Kind.RESPONSE : Kind.BAD_RESPONSE;
    }
    if (bad) {
      return Kind.INVALID;
    }
    if (method != null) {
      if (paramsShape == 3 || paramsShape == 2) {
        return Kind.INVALID;
      }
      return idPresent ? Kind.REQUEST : Kind.NOTIFICATION;
    }
    return Kind.INVALID;
  }

  /** @return why the line is malformed or invalid, for the error message */
  String problem() {
    if (failure != null) {
      return failure;
    }
    if (rootArray) {
      return "JSON-RPC batches are not supported; send one message per line";
    }
    if (rootScalar) {
      return "a JSON-RPC message must be a JSON object";
    }
    if (duplicate != null) {
      return "duplicate member name at " + duplicate + " (each name may appear once per object)";
    }
    if (loneSurrogate && !idBad) {
      return "a string holds an unpaired surrogate escape (such as \\ud800), which no UTF-8 text"
          + " can carry";
    }
    if (jsonrpcBad || !"2.0".equals(jsonrpc)) {
      return "\"jsonrpc\" must be \"2.0\"";
    }
    if (idBad) {
      return "\"id\" must be a string of whole characters or an integer from -2^63 to 2^63-1";
    }
    if (methodBad) {
      return "\"method\" must be a string";
    }
    if (method != null && paramsShape != 0 && paramsShape != 1) {
      return "\"params\" must be an object";
    }
    if (responseShaped()) {
      if (!idPresent) {
        return "a response needs an \"id\"";
      }
      if (hasResult && hasError) {
        return "a response has \"result\" or \"error\", not both";
      }
      if (resultNull) {
        return "\"result\" must not be null";
      }
      return "\"error\" must be an object with an integer \"code\" and a string \"message\"";
    }
    return "the object is neither a request, a notification nor a response";
  }

  private void failed(JacksonException e) {
    failure = JacksonReasons.of(e);
    overLimits = e instanceof tools.jackson.core.exc.StreamConstraintsException;
  }

  /**
   * @return whether the line stopped at a read constraint (nesting deeper than 500, a string of
   *     more than 100 million characters) rather than at bad syntax: it may be valid JSON, and
   *     {@link #id()} and {@link #method()} hold what was read before the limit
   */
  boolean overLimits() {
    return failure != null && overLimits;
  }

  /** @return the id, when the line had exactly one usable one */
  @Nullable RpcId id() {
    return idBad || idDuplicated ? null : id;
  }

  /** @return the method, or null */
  @Nullable String method() {
    return method;
  }

  /** @return {@code params.name} when it is a string */
  @Nullable String toolName() {
    return toolNameBad ? null : toolName;
  }

  /**
   * @return a reason why a {@code tools/call} request's params cannot be a CallToolRequest, or
   *     null when they can
   */
  @Nullable String toolCallProblem() {
    if (paramsShape != 1) {
      return "tools/call needs a params object";
    }
    if (toolName == null || toolNameBad) {
      return "tools/call needs params.name, a string";
    }
    if (argumentsShape == 3) {
      return "params.arguments must be an object";
    }
    if (metaBad) {
      return "params._meta must be an object";
    }
    return null;
  }

  /** @return {@code params.requestId} when it is a string or a number */
  @Nullable RpcId cancelRequestId() {
    return cancelRequestId;
  }
}
