/** The error of a query the workspace refuses (400 QueryInvalid), shared by planner and dialect. */
import { FerryError } from '../../errors.js'

export const bad = (message: string) => new FerryError('queryInvalid', message)
