/** Completion completes the command as it is installed, never `node` or the script's path. */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { bashCompletion, commandName, zshCompletion } from '../../../src/cli/completion.js'

test('the completed name is the installed command, or ferry when run as main.js', () => {
  assert.equal(commandName('/usr/local/bin/ferry'), 'ferry')
  assert.equal(commandName('/opt/app/node_modules/.bin/ferry-agent'), 'ferry-agent')
  assert.equal(commandName('/home/me/ferry/dist/src/main.js'), 'ferry')
  assert.equal(commandName(''), 'ferry')
})

test('the scripts register and name the completed command', () => {
  const bash = bashCompletion([], 'ferry-agent')
  assert.match(
    bash,
    /^# ferry-agent completion \(bash\): eval "\$\(ferry-agent completion bash\)"\n/,
  )
  assert.match(bash, /\ncomplete -F _ferry ferry-agent\n$/)
  assert.match(zshCompletion([], 'ferry-agent'), /\ncomplete -F _ferry ferry-agent\n$/)
})
