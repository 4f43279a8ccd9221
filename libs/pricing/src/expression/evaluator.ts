import { Decimal, decimalString, parseDecimal } from "../decimal";
import { instantMs } from "../periods/timezone";
import { applyMetricRounding } from "../rounding";
import { ExpressionError } from "./lexer";
import { type Expression, parseExpression } from "./parser";

export type ExpressionValue = Decimal | string;

/** What an expression can read: the event's code, timestamp and properties. */
export interface ExpressionEvent {
  code?: string;
  timestamp: Date | string | number;
  properties?: Record<string, unknown> | null;
}

function asNumber(value: ExpressionValue, what: string): Decimal {
  if (value instanceof Decimal) return value;
  const parsed = parseDecimal(value);
  if (parsed === null) throw new ExpressionError(`Expected a number for ${what}, got '${value}'`);
  return parsed;
}

function readVariable(node: Extract<Expression, { type: "variable" }>, event: ExpressionEvent): ExpressionValue {
  if (node.path === "code") return event.code ?? "";
  if (node.path === "timestamp") return new Decimal(Math.floor(instantMs(event.timestamp) / 1000));
  const raw = event.properties?.[node.name];
  if (raw === undefined || raw === null) throw new ExpressionError(`Variable: ${node.name} not found`);
  // Property strings that parse as decimals are numbers.
  return parseDecimal(raw) ?? String(raw);
}

function rounding(name: "round" | "ceil" | "floor", args: ExpressionValue[]): Decimal {
  const value = asNumber(args[0]!, name);
  const digits = args[1] === undefined ? 0 : asNumber(args[1], `${name} digits`).toNumber();
  return applyMetricRounding(value, name, Math.trunc(digits));
}

function call(node: Extract<Expression, { type: "call" }>, event: ExpressionEvent): ExpressionValue {
  const args = node.args.map((arg) => evaluate(arg, event));
  if (node.name === "concat") return args.map((a) => (a instanceof Decimal ? a.toString() : a)).join("");
  if (args.length === 0) throw new ExpressionError(`${node.name} needs at least one argument`);
  if (node.name === "least") return Decimal.min(...args.map((a) => asNumber(a, "least")));
  if (node.name === "greatest") return Decimal.max(...args.map((a) => asNumber(a, "greatest")));
  if (args.length > 2) throw new ExpressionError(`${node.name} takes at most two arguments`);
  return rounding(node.name, args);
}

function arithmetic(op: "+" | "-" | "*" | "/", left: Decimal, right: Decimal): Decimal {
  if (op === "+") return left.plus(right);
  if (op === "-") return left.minus(right);
  if (op === "*") return left.times(right);
  if (right.isZero()) throw new ExpressionError("Division by zero");
  return left.div(right);
}

function evaluate(node: Expression, event: ExpressionEvent): ExpressionValue {
  switch (node.type) {
    case "number":
      return new Decimal(node.value);
    case "string":
      return node.value;
    case "variable":
      return readVariable(node, event);
    case "negate":
      return asNumber(evaluate(node.operand, event), "-").neg();
    case "binary":
      return arithmetic(
        node.op,
        asNumber(evaluate(node.left, event), node.op),
        asNumber(evaluate(node.right, event), node.op),
      );
    case "call":
      return call(node, event);
  }
}

const parsedCache = new Map<string, Expression>();

/** Evaluates a metric expression against one event. Throws ExpressionError (message as Lago's). */
export function evaluateExpression(expression: string | Expression, event: ExpressionEvent): ExpressionValue {
  let tree = typeof expression === "string" ? parsedCache.get(expression) : expression;
  if (!tree) {
    tree = parseExpression(expression as string);
    if (parsedCache.size < 1000) parsedCache.set(expression as string, tree);
  }
  return evaluate(tree, event);
}

/**
 * The value written into properties[field_name] at ingestion: numbers in Lago's decimal format
 * ("3.0"), strings as they are.
 */
export function expressionPropertyValue(expression: string, event: ExpressionEvent): string {
  const value = evaluateExpression(expression, event);
  return value instanceof Decimal ? decimalString(value) : value;
}
