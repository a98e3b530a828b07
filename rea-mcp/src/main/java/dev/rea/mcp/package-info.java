/** REA's stdio MCP server ({@code rea mcp}) over the core library (CONTRACT section 7). */
@NullMarked
package dev.rea.mcp;

import org.jspecify.annotations.NullMarked;
