export { type ErrorDetails, HankweaveError } from './errors.js';
