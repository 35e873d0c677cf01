/**
 * The local GitHub stand-in: GitHub's GraphQL schema and REST contributors, answered from real git
 * repositories, with GitHub's errors, rate limits and scripted faults. See README.md here.
 */
export {
  startGitHubStandIn,
  type GitHubStandIn,
  type GitHubStandInOptions,
  type RequestLogEntry,
} from "./server.js";
export {
  DEMO_ANONYMOUS_EMAIL,
  DEMO_APPS,
  DEMO_KATA_OWNER,
  DEMO_LOGIN,
  DEMO_LONG_MESSAGE_HEADLINE,
  DEMO_ORGANIZATION,
  DEMO_PATHS,
  DEMO_REFS,
  DEMO_REPOSITORIES,
  DEMO_TOKEN,
  DEMO_USER_IDS,
  OTHER_LOGIN,
  OTHER_TOKEN,
} from "./demoConstants.js";
export { DEMO_KATA_COUNT, defaultDemoDataDir, ensureDemoWorld, type DemoWorld } from "./demoWorld.js";
export { FaultController, parseFaultSpec, type Fault, type FaultKind, type FaultTarget } from "./faults.js";
export {
  OAuthController,
  normalizeUserCode,
  type DeviceCodeView,
  type DeviceFlowOptions,
  type IssuedTokenView,
  type OAuthStats,
} from "./oauth.js";
export type { RateResource } from "./rateLimit.js";
export {
  World,
  type WorldApp,
  type WorldDefinition,
  type WorldOrganization,
  type WorldRepository,
  type WorldUser,
  type WorldVisibility,
} from "./world.js";
export type { GitOptions } from "./gitProcess.js";
