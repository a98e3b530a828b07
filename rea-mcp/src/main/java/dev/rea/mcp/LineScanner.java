package dev.rea.mcp;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.async.ByteArrayFeeder;
import tools.jackson.core.json.JsonFactory;

/**
 * Checks one inbound line of JSON-RPC incrementally, without keeping its bytes, and notes the few
 * members the server acts on before the SDK sees the line: the top-level {@code jsonrpc}, {@code
 * id}, {@code method}, whether {@code result}/{@code error} are present, and inside {@code
 * params}: {@code name} (the tool of a {@code tools/call}), {@code requestId} (of {@code
 * notifications/cancelled}) and the type of {@code arguments}.
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
    /** Not JSON, or more than one JSON value (-32700). */
    MALFORMED,
    /** Only whitespace. */
    BLANK
  }

  private final JsonParser parser;
  private final ByteArrayFeeder feeder;
  private @Nullable String failure;
  private int depth;
  private int roots;
  private boolean sawToken;
  private @Nullable String topName;
  private @Nullable String paramName;
  private boolean inParams;
  private @Nullable String jsonrpc;
  private boolean jsonrpcBad;
  private @Nullable RpcId id;
  private boolean idPresent;
  private boolean idBad;
  private @Nullable String method;
  private boolean methodBad;
  private boolean hasResult;
  private boolean hasError;
  private boolean errorBad;
  private int paramsShape; // 0 absent, 1 object, 2 array, 3 other
  private @Nullable String toolName;
  private boolean toolNameBad;
  private int argumentsShape; // 0 absent, 1 object, 3 other
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
    try {
      feeder.feedInput(buf, off, off + len);
      pump();
    } catch (JacksonException e) {
      failure = e.getOriginalMessage();
    }
  }

  /** Ends the line; after this the accessors describe it. */
  void finish() {
    if (failure == null) {
      try {
        feeder.endOfInput();
        pump();
      } catch (JacksonException e) {
        failure = e.getOriginalMessage();
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
        if (depth == 1) {
          onTopContainer(t == JsonToken.START_OBJECT);
        } else if (depth == 2 && inParams) {
          onParamContainer(t == JsonToken.START_OBJECT);
        }
        if (depth == 0 && t == JsonToken.START_ARRAY) {
          rootArray = true;
        }
        depth++;
      }
      case END_OBJECT, END_ARRAY -> {
        depth--;
        if (depth == 1) {
          inParams = false;
        }
      }
      case PROPERTY_NAME -> {
        if (depth == 1) {
          topName = parser.currentName();
        } else if (depth == 2 && inParams) {
          paramName = parser.currentName();
        }
      }
      default -> {
        if (depth == 0) {
          rootScalar = true;
        } else if (depth == 1) {
          onTopScalar(t);
        } else if (depth == 2 && inParams) {
          onParamScalar(t);
        }
      }
    }
  }

  private boolean rootArray;
  private boolean rootScalar;

  private void onTopContainer(boolean object) {
    String n = topName == null ? "" : topName;
    switch (n) {
      case "params" -> {
        paramsShape = object ? 1 : 2;
        inParams = object;
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
      }
      default -> {}
    }
  }

  private void onParamContainer(boolean object) {
    String n = paramName == null ? "" : paramName;
    switch (n) {
      case "arguments" -> argumentsShape = object ? 1 : 3;
      case "name" -> toolNameBad = true;
      default -> {}
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
      case "result" -> hasResult = true;
      case "error" -> {
        hasError = true;
        errorBad = true;
      }
      default -> {}
    }
  }

  private void onParamScalar(JsonToken t) {
    String n = paramName == null ? "" : paramName;
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
      default -> {}
    }
  }

  private @Nullable RpcId idOf(JsonToken t) {
    return switch (t) {
      case VALUE_STRING -> new RpcId(true, parser.getString());
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> new RpcId(false, parser.getText());
      default -> null;
    };
  }

  /** @return the message kind; call after {@link #finish} */
  Kind kind() {
    if (failure != null) {
      return Kind.MALFORMED;
    }
    if (!sawToken) {
      return Kind.BLANK;
    }
    if (rootArray || rootScalar || jsonrpcBad || !"2.0".equals(jsonrpc) || idBad || methodBad) {
      return Kind.INVALID;
    }
    if (method != null) {
      if (paramsShape == 3 || paramsShape == 2) {
        return Kind.INVALID;
      }
      return idPresent ? Kind.REQUEST : Kind.NOTIFICATION;
    }
    if (idPresent && (hasResult ^ hasError) && !errorBad) {
      return Kind.RESPONSE;
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
    if (jsonrpcBad || !"2.0".equals(jsonrpc)) {
      return "\"jsonrpc\" must be \"2.0\"";
    }
    if (idBad) {
      return "\"id\" must be a string or a number";
    }
    if (methodBad) {
      return "\"method\" must be a string";
    }
    if (method != null && paramsShape != 0 && paramsShape != 1) {
      return "\"params\" must be an object";
    }
    return "the object is neither a request, a notification nor a response";
  }

  /** @return the id, when the line had a usable one */
  @Nullable RpcId id() {
    return idBad ? null : id;
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
    return null;
  }

  /** @return {@code params.requestId} when it is a string or a number */
  @Nullable RpcId cancelRequestId() {
    return cancelRequestId;
  }
}
