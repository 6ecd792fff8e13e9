/**
 * Transaction and awareness origin of changes read from another process's stream entries: the
 * room relays them to its clients but neither stores nor appends them again.
 */
export const REMOTE_ORIGIN = Symbol('remote')
