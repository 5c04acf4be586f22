/** A player's environment: the user's, without the variables that point at the user's working directory. */
export function playerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { PWD: _pwd, OLDPWD: _old, INIT_CWD: _init, ...rest } = env;
  return rest;
}
