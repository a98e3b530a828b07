/**
 * REA core library: reads GGUF and safetensors headers without loading weights, validates them
 * strictly, and produces Evidence records (see {@code shared/spec/model-file-declarations.md}
 * and {@code CONTRACT.md}). Entry point: {@link dev.rea.core.internal.inspect.ModelInspector}. This
 * library depends on no CLI or MCP code.
 */
@NullMarked
package dev.rea.core;

import org.jspecify.annotations.NullMarked;
