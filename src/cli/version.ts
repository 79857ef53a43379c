export { PACKAGE_VERSION as VERSION } from "../package-root.js";
