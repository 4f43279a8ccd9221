import { describe, expect, it } from "vitest";
import { Decimal } from "../decimal";
import { evaluateExpression, expressionPropertyValue } from "./evaluator";
import { ExpressionError } from "./lexer";

const event = { code: "api", timestamp: "2024-03-01T00:00:10Z", properties: { a: "2", b: 3.5, name: "eu", zero: 0 } };
const value = (source: string) => {
  const result = evaluateExpression(source, event);
  return result instanceof Decimal ? result.toString() : result;
};

describe("metric expressions", () => {
  it.each([
    ["1 + 2 * 3", "7"],
    ["(1 + 2) * 3", "9"],
    ["-event.properties.a + 1", "-1"],
    ["event.properties.a * event.properties.b", "7"],
    ["10 / 4", "2.5"],
    ["round(2.5)", "3"],
    ["ROUND(1.2345, 2)", "1.23"],
    ["Round(1234, -2)", "1200"],
    ["ceil(1.01)", "2"],
    ["floor(-1.5)", "-2"],
    ["ceil(123.456, -2)", "200"],
    ["least(3, event.properties.b, 10)", "3"],
    ["greatest(3, event.properties.b, 1)", "3.5"],
    ["concat('x-', event.properties.name)", "x-eu"],
    ["event.code", "api"],
    ["event.timestamp", "1709251210"],
  ])("%s = %s", (source, expected) => {
    expect(value(source)).toBe(expected);
  });

  it.each([
    ["event.properties.missing + 1", "Variable: missing not found"],
    ["1 / event.properties.zero", "Division by zero"],
    ["rOuNd(1)", "Unknown function: rOuNd"],
    ["1 +", "Unexpected end of expression"],
    ["event.properties.name * 2", "Expected a number"],
    ["process.exit(1)", "Unknown function: process.exit"],
  ])("rejects %s", (source, message) => {
    expect(() => evaluateExpression(source, event)).toThrow(ExpressionError);
    expect(() => evaluateExpression(source, event)).toThrow(message);
  });

  it("writes numbers into the event in Lago's format", () => {
    expect(expressionPropertyValue("1 + 2", event)).toBe("3.0");
  });
});
