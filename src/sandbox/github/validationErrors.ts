import { Kind, visit, BREAK, type ASTNode, type DocumentNode, type GraphQLError } from "graphql";

/**
 * graphql-js finds the same mistakes GitHub's GraphQL (graphql-ruby) finds, but words them
 * differently. These functions re-phrase them as GitHub answers: `path`, `extensions` with
 * graphql-ruby's `code`, `locations`, `message`, in that order.
 */

/** One entry of a GitHub `errors` array. */
export type GitHubErrorEntry = Record<string, unknown>;

function locationsOf(error: GraphQLError): Array<{ line: number; column: number }> | undefined {
  return error.locations?.map((location) => ({ line: location.line, column: location.column }));
}

/** The graphql-ruby path of an AST node: `["query Name", "repository", "foo"]`. */
function pathOf(document: DocumentNode, target: ASTNode | undefined): string[] | undefined {
  if (!target) return undefined;
  let found: string[] | undefined;
  visit(document, {
    enter(node, _key, _parent, _path, ancestors) {
      if (node !== target) return undefined;
      const chain = [...ancestors, node].filter(
        (item): item is ASTNode => !Array.isArray(item) && "kind" in item,
      );
      const path: string[] = [];
      for (const item of chain) {
        if (item.kind === Kind.OPERATION_DEFINITION) {
          path.push(item.name ? `${item.operation} ${item.name.value}` : item.operation);
        } else if (item.kind === Kind.FRAGMENT_DEFINITION) {
          path.push(`fragment ${item.name.value}`);
        } else if (item.kind === Kind.FIELD) {
          path.push(item.alias?.value ?? item.name.value);
        } else if (item.kind === Kind.INLINE_FRAGMENT) {
          path.push(item.typeCondition ? `... on ${item.typeCondition.name.value}` : "...");
        } else if (item.kind === Kind.ARGUMENT) {
          path.push(item.name.value);
        }
      }
      found = path;
      return BREAK;
    },
  });
  return found;
}

function entry(
  error: GraphQLError,
  document: DocumentNode,
  message: string,
  extensions?: Record<string, unknown>,
): GitHubErrorEntry {
  const result: GitHubErrorEntry = {};
  const path = pathOf(document, error.nodes?.[0]);
  if (path) result.path = path;
  if (extensions) result.extensions = extensions;
  const locations = locationsOf(error);
  if (locations) result.locations = locations;
  result.message = message;
  return result;
}

/** The name of the operation a node belongs to (`Blame`), or "anonymous". */
function operationNameOf(document: DocumentNode, target: ASTNode | undefined): string {
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    let inside = false;
    visit(definition, {
      enter(node) {
        if (node !== target) return undefined;
        inside = true;
        return BREAK;
      },
    });
    if (inside) return definition.name?.value ?? "anonymous";
  }
  return "anonymous";
}

/** Re-phrases a validation error of graphql-js as GitHub's. Unknown kinds keep graphql-js's words. */
export function toGitHubValidationError(error: GraphQLError, document: DocumentNode): GitHubErrorEntry {
  const text = error.message;
  let match: RegExpExecArray | null;

  if ((match = /^Cannot query field "([^"]+)" on type "([^"]+)"\./.exec(text))) {
    const [, fieldName = "", typeName = ""] = match;
    return entry(error, document, `Field '${fieldName}' doesn't exist on type '${typeName}'`, {
      code: "undefinedField",
      typeName,
      fieldName,
    });
  }
  if ((match = /^Unknown argument "([^"]+)" on field "[^".]+\.([^"]+)"\./.exec(text))) {
    const [, argumentName = "", fieldName = ""] = match;
    return entry(error, document, `Field '${fieldName}' doesn't accept argument '${argumentName}'`, {
      code: "argumentNotAccepted",
      name: fieldName,
      typeName: "Field",
      argumentName,
    });
  }
  if (
    (match =
      /^Field "([^"]+)" argument "([^"]+)" of type "[^"]+" is required, but it was not provided\./.exec(text))
  ) {
    const [, fieldName = "", argumentName = ""] = match;
    return entry(error, document, `Field '${fieldName}' is missing required arguments: ${argumentName}`, {
      code: "missingRequiredArguments",
      className: "Field",
      name: fieldName,
      arguments: argumentName,
    });
  }
  if ((match = /^Variable "\$([^"]+)" is not defined/.exec(text))) {
    const [, variableName = ""] = match;
    const operation = operationNameOf(document, error.nodes?.[0]);
    return entry(error, document, `Variable $${variableName} is used by ${operation} but not declared`, {
      code: "variableNotDefined",
      variableName,
    });
  }
  if ((match = /^Variable "\$([^"]+)" is never used/.exec(text))) {
    const [, variableName = ""] = match;
    const operation = operationNameOf(document, error.nodes?.[0]);
    return entry(error, document, `Variable $${variableName} is declared by ${operation} but not used`, {
      code: "variableNotUsed",
      variableName,
    });
  }
  if (
    (match = /^Variable "\$([^"]+)" of type "([^"]+)" used in position expecting type "([^"]+)"\./.exec(text))
  ) {
    const [, variableName = "", variableType = "", expected = ""] = match;
    const nullabilityOnly = expected.replace(/!$/, "") === variableType.replace(/!$/, "");
    const kind = nullabilityOnly ? "Nullability mismatch" : "Type mismatch";
    const argument = error.nodes?.[1];
    const argumentName = argument && "name" in argument && argument.name ? argument.name.value : variableName;
    return entry(
      error,
      document,
      `${kind} on variable $${variableName} and argument ${argumentName} (${variableType} / ${expected})`,
      { code: "variableMismatch", variableName, typeName: variableType, argumentName, errorMessage: kind },
    );
  }
  if (
    (match = /^Field "([^"]+)" must not have a selection since type "([^"]+)" has no subfields\./.exec(text))
  ) {
    const [, fieldName = "", typeName = ""] = match;
    return entry(
      error,
      document,
      `Selections can't be made on scalars (field '${fieldName}' returns ${typeName} but has selections [...])`,
      { code: "selectionMismatch", nodeName: `field '${fieldName}'`, typeName },
    );
  }
  if ((match = /^Field "([^"]+)" of type "([^"]+)" must have a selection of subfields\./.exec(text))) {
    const [, fieldName = "", typeName = ""] = match;
    const bare = typeName.replace(/[[\]!]/g, "");
    return entry(
      error,
      document,
      `Field must have selections (field '${fieldName}' returns ${bare} but has no selections. Did you mean '${fieldName} { ... }'?)`,
      { code: "selectionMismatch", nodeName: `field '${fieldName}'`, typeName: bare },
    );
  }
  if (
    (match =
      /^Fragment (?:"[^"]+" )?cannot be spread here as objects of type "([^"]+)" can never be of type "([^"]+)"\./.exec(
        text,
      ))
  ) {
    const [, parentType = "", fragmentType = ""] = match;
    return entry(error, document, `Fragment on ${fragmentType} can't be spread inside ${parentType}`, {
      code: "cannotSpreadFragment",
      typeName: fragmentType,
      parentName: parentType,
    });
  }
  if ((match = /^Unknown type "([^"]+)"\./.exec(text))) {
    const [, typeName = ""] = match;
    return entry(error, document, `No such type ${typeName}, so it can't be a fragment condition`, {
      code: "undefinedType",
      typeName,
    });
  }
  return entry(error, document, text);
}

const PUNCTUATORS: Record<string, string> = {
  "{": "LCURLY",
  "}": "RCURLY",
  "(": "LPAREN",
  ")": "RPAREN",
  "[": "LBRACKET",
  "]": "RBRACKET",
  ":": "COLON",
  $: "VAR_SIGN",
  "!": "BANG",
  "=": "EQUALS",
  "@": "DIR_SIGN",
  "...": "ELLIPSIS",
  "|": "PIPE",
  "&": "AMP",
};

/** Re-phrases a syntax error as GitHub's parser words it: `Parse error on "}" (RCURLY) at [1, 5]`. */
export function toGitHubSyntaxError(error: GraphQLError): GitHubErrorEntry {
  const location = error.locations?.[0] ?? { line: 1, column: 1 };
  const found = /(?:found|Unexpected) (?:"([^"]*)"|(<EOF>)|Name "([^"]*)"|(\w+) "([^"]*)")/.exec(
    error.message,
  );
  let message: string;
  if (!found) {
    message = `Parse error at [${location.line}, ${location.column}]: ${error.message.replace(/^Syntax Error: /, "")}`;
  } else if (found[2]) {
    message = "Unexpected end of document";
  } else {
    const token = found[1] ?? found[3] ?? found[5] ?? "";
    const kind =
      found[1] !== undefined
        ? (PUNCTUATORS[token] ?? "UNKNOWN_CHAR")
        : found[3] !== undefined
          ? "IDENTIFIER"
          : (found[4] ?? "").toUpperCase();
    message = `Parse error on "${token}" (${kind}) at [${location.line}, ${location.column}]`;
  }
  return { message, locations: [{ line: location.line, column: location.column }] };
}

/**
 * Re-phrases a variable that could not be coerced (missing, null, wrong type) as GitHub does:
 * `Variable $login of type String! was provided invalid value`, with the problems listed.
 */
export function toGitHubVariableError(
  error: GraphQLError,
  document: DocumentNode,
  variables: Record<string, unknown> | null,
): GitHubErrorEntry {
  const match = /^Variable "\$([^"]+)"/.exec(error.message);
  const name = match?.[1] ?? "";
  let typeText = "";
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const variable of definition.variableDefinitions ?? []) {
      if (variable.variable.name.value === name) typeText = printType(variable.type);
    }
  }
  const value = variables && name in variables ? variables[name] : null;
  const explanation = /not provided|must not be null/.test(error.message)
    ? "Expected value to not be null"
    : error.message.replace(/^.*?; /, "");
  const result: GitHubErrorEntry = {};
  result.extensions = { value: value ?? null, problems: [{ path: [], explanation }] };
  const locations = locationsOf(error);
  if (locations) result.locations = locations;
  result.message = `Variable $${name} of type ${typeText} was provided invalid value`;
  return result;
}

function printType(node: { kind: Kind; type?: unknown; name?: { value: string } }): string {
  if (node.kind === Kind.NON_NULL_TYPE) return `${printType(node.type as typeof node)}!`;
  if (node.kind === Kind.LIST_TYPE) return `[${printType(node.type as typeof node)}]`;
  return node.name?.value ?? "";
}
