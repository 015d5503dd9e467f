<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="pt_BR" sourcelanguage="en">
<context>
    <name>CsvExport</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Não foi possível gravar %1: %2</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::Banner</name>
    <message>
        <source>Dismiss</source>
        <translation>Dispensar</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::CheckpointTableModel</name>
    <message>
        <source>Remote</source>
        <translation>Remoto</translation>
    </message>
    <message>
        <source>ETag %1</source>
        <translation>ETag %1</translation>
    </message>
    <message>
        <source>upload failed</source>
        <translation>envio falhou</translation>
    </message>
    <message>
        <source>in S3</source>
        <translation>no S3</translation>
    </message>
    <message>
        <source>uploading</source>
        <translation>enviando</translation>
    </message>
    <message>
        <source>saved</source>
        <translation>salvo</translation>
    </message>
    <message>
        <source>writing</source>
        <translation>gravando</translation>
    </message>
    <message>
        <source>deleting</source>
        <translation>excluindo</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>excluído</translation>
    </message>
    <message>
        <source>damaged (corrupt)</source>
        <translation>danificado (corrompido)</translation>
    </message>
    <message>
        <source>damaged (file missing)</source>
        <translation>danificado (arquivo ausente)</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>falhou</translation>
    </message>
    <message>
        <source>verified</source>
        <translation>verificado</translation>
    </message>
    <message>
        <source>damaged (checksum)</source>
        <translation>danificado (checksum)</translation>
    </message>
    <message>
        <source>head</source>
        <translation>atual</translation>
    </message>
    <message>
        <source>pinned</source>
        <translation>fixado</translation>
    </message>
    <message>
        <source>This checkpoint is damaged and cannot be resumed from.</source>
        <translation>Este checkpoint está danificado e não pode ser usado para retomar.</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Época</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Passo</translation>
    </message>
    <message>
        <source>Global step</source>
        <translation>Passo global</translation>
    </message>
    <message>
        <source>Saved at</source>
        <translation>Salvo em</translation>
    </message>
    <message>
        <source>Train loss</source>
        <translation>Perda trein.</translation>
    </message>
    <message>
        <source>Train acc.</source>
        <translation>Acur. trein.</translation>
    </message>
    <message>
        <source>Val. loss</source>
        <translation>Perda valid.</translation>
    </message>
    <message>
        <source>Val. acc.</source>
        <translation>Acur. valid.</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Tamanho</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Branch</source>
        <translation>Ramo</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>Atual</translation>
    </message>
    <message>
        <source>Pinned</source>
        <translation>Fixado</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::ComparisonPlot</name>
    <message>
        <source>Loss</source>
        <translation>Perda</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Acurácia</translation>
    </message>
    <message>
        <source>validation (per epoch)</source>
        <translation>validação (por época)</translation>
    </message>
    <message>
        <source>%1, branch %2</source>
        <translation>%1, ramo %2</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::ComparisonTableModel</name>
    <message>
        <source>epoch %1, global step %2, branch %3</source>
        <translation>época %1, passo global %2, ramo %3</translation>
    </message>
    <message>
        <source>epoch %1, global step %2</source>
        <translation>época %1, passo global %2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 de %2</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Execução</translation>
    </message>
    <message>
        <source>What differs</source>
        <translation>O que difere</translation>
    </message>
    <message>
        <source>%1 differs</source>
        <translation>%1 difere</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Passos</translation>
    </message>
    <message>
        <source>Final val. loss</source>
        <translation>Perda valid. final</translation>
    </message>
    <message>
        <source>Final val. acc.</source>
        <translation>Acur. valid. final</translation>
    </message>
    <message>
        <source>Best val. loss</source>
        <translation>Melhor perda valid.</translation>
    </message>
    <message>
        <source>Best val. acc.</source>
        <translation>Melhor acur. valid.</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::EventMarkers</name>
    <message>
        <source>another device: other bits from here</source>
        <translation>outro dispositivo: outros bits a partir daqui</translation>
    </message>
    <message>
        <source>GPU throttled</source>
        <translation>GPU limitada</translation>
    </message>
    <message>
        <source>low disk</source>
        <translation>disco quase cheio</translation>
    </message>
    <message>
        <source>worker lost</source>
        <translation>worker perdido</translation>
    </message>
    <message>
        <source>worker %1 lost</source>
        <translation>worker %1 perdido</translation>
    </message>
    <message>
        <source>worker %1 lost → job restarted from checkpoint #%2</source>
        <translation>worker %1 perdido → job reiniciado do checkpoint nº %2</translation>
    </message>
    <message>
        <source>worker lost → job restarted from checkpoint #%1</source>
        <translation>worker perdido → job reiniciado do checkpoint nº %1</translation>
    </message>
    <message>
        <source>worker lost → job restarted</source>
        <translation>worker perdido → job reiniciado</translation>
    </message>
    <message>
        <source>diverged (NaN)</source>
        <translation>divergiu (NaN)</translation>
    </message>
    <message>
        <source>crash</source>
        <translation>falha</translation>
    </message>
    <message>
        <source>preemption notice</source>
        <translation>aviso de preempção</translation>
    </message>
    <message>
        <source>preempted</source>
        <translation>preemptado</translation>
    </message>
    <message>
        <source>resume</source>
        <translation>retomada</translation>
    </message>
    <message>
        <source>rollback</source>
        <translation>reversão</translation>
    </message>
    <message>
        <source>stop</source>
        <translation>parada</translation>
    </message>
    <message>
        <source>error</source>
        <translation>erro</translation>
    </message>
    <message>
        <source>finish</source>
        <translation>fim</translation>
    </message>
    <message>
        <source>crash armed</source>
        <translation>falha armada</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::FaultTolerancePanel</name>
    <message>
        <source>%1 useful steps (%2 worker-hours)</source>
        <translation>%1 passos úteis (%2 horas-worker)</translation>
    </message>
    <message>
        <source>Useful steps divided by the wall time of every session times its workers.</source>
        <translation>Passos úteis divididos pelo tempo de cada sessão vezes seus workers.</translation>
    </message>
    <message>
        <source>Goodput per worker-hour</source>
        <translation>Goodput por hora-worker</translation>
    </message>
    <message>
        <source>Lost steps times the time per step times the workers that computed them: in a data-parallel job one lost worker costs every worker&apos;s work since the checkpoint.</source>
        <translation>Passos perdidos × tempo por passo × workers que os calcularam: num job em paralelo, um worker perdido custa o trabalho de todos os workers desde o checkpoint.</translation>
    </message>
    <message>
        <source>Worker time lost</source>
        <translation>Tempo de workers perdido</translation>
    </message>
    <message>
        <source>Times torchrun restarted every worker of the job from its last checkpoint after one was lost.</source>
        <translation>Vezes em que o torchrun reiniciou todos os workers do job a partir do último checkpoint depois de perder um deles.</translation>
    </message>
    <message>
        <source>Job restarts</source>
        <translation>Reinícios do job</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>What checkpointing and failures cost</source>
        <translation>Quanto custam checkpoints e falhas</translation>
    </message>
    <message>
        <source>Checkpoints written</source>
        <translation>Checkpoints gravados</translation>
    </message>
    <message>
        <source>Interruptions</source>
        <translation>Interrupções</translation>
    </message>
    <message>
        <source>Sessions that ended by a crash, a preemption, a kill or a failure.</source>
        <translation>Sessões encerradas por falha, preempção, kill ou erro.</translation>
    </message>
    <message>
        <source>Steps lost</source>
        <translation>Passos perdidos</translation>
    </message>
    <message>
        <source>Steps an interruption threw away: computed after the checkpoint it left to resume from.</source>
        <translation>Passos que uma interrupção descartou: calculados depois do checkpoint do qual ela permitia retomar.</translation>
    </message>
    <message>
        <source>Steps recomputed</source>
        <translation>Passos recalculados</translation>
    </message>
    <message>
        <source>Of the lost steps, those trained (or replayed) again.</source>
        <translation>Dos passos perdidos, os que foram treinados (ou repetidos) de novo.</translation>
    </message>
    <message>
        <source>Recomputed by choice</source>
        <translation>Recalculados por escolha</translation>
    </message>
    <message>
        <source>Steps given up by resuming at an earlier position (a rollback): a choice, not lost work.</source>
        <translation>Passos abandonados ao retomar numa posição anterior (um retrocesso): uma escolha, não trabalho perdido.</translation>
    </message>
    <message>
        <source>Wall time lost</source>
        <translation>Tempo real perdido</translation>
    </message>
    <message>
        <source>Lost steps times the measured time per step.</source>
        <translation>Passos perdidos vezes o tempo medido por passo.</translation>
    </message>
    <message>
        <source>Downtime</source>
        <translation>Tempo parado</translation>
    </message>
    <message>
        <source>Time between an interruption and the next session: waiting to resume, not lost work.</source>
        <translation>Tempo entre uma interrupção e a sessão seguinte: espera para retomar, não trabalho perdido.</translation>
    </message>
    <message>
        <source>no training yet</source>
        <translation>nenhum treino ainda</translation>
    </message>
    <message>
        <source>Goodput</source>
        <translation>Goodput</translation>
    </message>
    <message>
        <source>Useful steps (the global step reached on the current branch) divided by all steps computed.</source>
        <translation>Passos úteis (o passo global alcançado no ramo atual) divididos por todos os passos calculados.</translation>
    </message>
    <message>
        <source>Best checkpoint interval (Young/Daly)</source>
        <translation>Melhor intervalo entre checkpoints (Young/Daly)</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>Mean time between failures to assume when none was observed.</source>
        <translation>Tempo médio entre falhas a supor quando nenhuma foi observada.</translation>
    </message>
    <message>
        <source>Use the assumed MTBF even when failures were observed</source>
        <translation>Usar o MTBF suposto mesmo quando houve falhas observadas</translation>
    </message>
    <message>
        <source>Assumed MTBF</source>
        <translation>MTBF suposto</translation>
    </message>
    <message>
        <source>Checkpoint cost C</source>
        <translation>Custo do checkpoint C</translation>
    </message>
    <message>
        <source>Mean write time of one checkpoint, measured.</source>
        <translation>Tempo médio medido para gravar um checkpoint.</translation>
    </message>
    <message>
        <source>MTBF M</source>
        <translation>MTBF M</translation>
    </message>
    <message>
        <source>Observed: instance time divided by interruptions; otherwise the assumed value.</source>
        <translation>Observado: tempo de instância dividido pelas interrupções; senão, o valor suposto.</translation>
    </message>
    <message>
        <source>Optimal interval √(2·C·M)</source>
        <translation>Intervalo ótimo √(2·C·M)</translation>
    </message>
    <message>
        <source>Checkpointing this often minimizes the expected time lost to checkpoints plus recomputation.</source>
        <translation>Fazer checkpoints com essa frequência minimiza o tempo esperado perdido com checkpoints mais recálculo.</translation>
    </message>
    <message>
        <source>Spot pricing estimate</source>
        <translation>Estimativa de preço spot</translation>
    </message>
    <message>
        <source>How much cheaper an interruptible (spot) instance is than on-demand.</source>
        <translation>Quanto uma instância interrompível (spot) é mais barata que uma sob demanda.</translation>
    </message>
    <message>
        <source>Spot discount</source>
        <translation>Desconto spot</translation>
    </message>
    <message>
        <source>Training seconds</source>
        <translation>Segundos de treinamento</translation>
    </message>
    <message>
        <source>Wall time of all sessions, including lost work.</source>
        <translation>Tempo real de todas as sessões, incluindo o trabalho perdido.</translation>
    </message>
    <message>
        <source>Billable seconds</source>
        <translation>Segundos faturáveis</translation>
    </message>
    <message>
        <source>Training seconds at the spot discount.</source>
        <translation>Segundos de treinamento com o desconto spot.</translation>
    </message>
    <message>
        <source>Savings</source>
        <translation>Economia</translation>
    </message>
    <message>
        <source>Compared with on-demand, after paying for the lost work.</source>
        <translation>Em comparação com sob demanda, já pagando o trabalho perdido.</translation>
    </message>
    <message>
        <source>%1 (%2 of compute time)</source>
        <translation>%1 (%2 do tempo de cálculo)</translation>
    </message>
    <message>
        <source>%1 (%2 useful of %3 computed)</source>
        <translation>%1 (%2 úteis de %3 calculados)</translation>
    </message>
    <message>
        <source>%1 (observed)</source>
        <translation>%1 (observado)</translation>
    </message>
    <message>
        <source>%1 (assumed)</source>
        <translation>%1 (suposto)</translation>
    </message>
    <message>
        <source>%1 ≈ every %2 steps</source>
        <translation>%1 ≈ a cada %2 passos</translation>
    </message>
    <message>
        <source>needs a measured checkpoint</source>
        <translation>requer um checkpoint medido</translation>
    </message>
    <message>
        <source>%1 (%2 s)</source>
        <translation>%1 (%2 s)</translation>
    </message>
    <message>
        <source>Saves committed to the registry, in every session of this run; and those due while the previous one was still being written that were skipped or taken late (the run&apos;s async policy).</source>
        <translation>Salvamentos confirmados no registro, em todas as sessões desta execução; e os devidos enquanto o anterior ainda estava sendo gravado, pulados ou feitos com atraso (a política assíncrona da execução).</translation>
    </message>
    <message>
        <source>%1 (%2 skipped, %3 taken late)</source>
        <translation>%1 (%2 pulados, %3 feitos com atraso)</translation>
    </message>
    <message>
        <source>Checkpoint writing</source>
        <translation>Gravação dos checkpoints</translation>
    </message>
    <message>
        <source>Total time the background I/O thread spent writing, hashing and committing checkpoints, and its share of the time spent computing steps. Training goes on meanwhile.</source>
        <translation>Tempo total que a thread de E/S em segundo plano gastou gravando, calculando o hash e confirmando os checkpoints, e sua parte do tempo de cálculo dos passos. O treinamento continua enquanto isso.</translation>
    </message>
    <message>
        <source>Training held up</source>
        <translation>Treinamento retido</translation>
    </message>
    <message>
        <source>Total time the training thread waited for checkpoints: to take each snapshot, and, with the &apos;wait&apos; policy, for the previous save to be written. This is what checkpointing cost the training directly.</source>
        <translation>Tempo total em que a thread de treinamento esperou pelos checkpoints: para tirar cada instantâneo e, com a política “wait”, para que o salvamento anterior terminasse de ser gravado. É o que os checkpoints custaram diretamente ao treinamento.</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::FirstLaunchHint</name>
    <message>
        <source>Start a training run with New run… (%1), or watch a one-minute demo: a run, a crash, a rollback.</source>
        <translation>Inicie um treinamento com Nova execução… (%1) ou assista a uma demonstração de um minuto: uma execução, uma falha, uma reversão.</translation>
    </message>
    <message>
        <source>New run…</source>
        <translation>Nova execução…</translation>
    </message>
    <message>
        <source>Run the demo</source>
        <translation>Executar a demonstração</translation>
    </message>
    <message>
        <source>Getting started</source>
        <translation>Primeiros passos</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::MainWindow</name>
    <message>
        <source>System</source>
        <translation>Sistema</translation>
    </message>
    <message>
        <source>Download runs synced to S3-compatible storage (s3://bucket/prefix) into this home, to resume them here</source>
        <translation>Baixar para esta pasta execuções sincronizadas com um armazenamento compatível com S3 (s3://bucket/prefixo), para retomá-las aqui</translation>
    </message>
    <message>
        <source>Open runs from remote storage…</source>
        <translation>Abrir execuções do armazenamento remoto…</translation>
    </message>
    <message>
        <source>Open runs from remote storage</source>
        <translation>Abrir execuções do armazenamento remoto</translation>
    </message>
    <message>
        <source>Runs under this address are downloaded into this window&apos;s home, every file checked against its SHA-256 first:</source>
        <translation>As execuções sob este endereço são baixadas para a pasta desta janela, cada arquivo conferido antes pelo seu SHA-256:</translation>
    </message>
    <message>
        <source>Savepoint — %1</source>
        <translation>Savepoint — %1</translation>
    </message>
    <message>
        <source>Recovery: %1</source>
        <translation>Recuperação: %1</translation>
    </message>
    <message>
        <source>Cannot open the registry in %1: %2</source>
        <translation>Não foi possível abrir o registro em %1: %2</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Execuções</translation>
    </message>
    <message>
        <source>Fault tolerance</source>
        <translation>Tolerância a falhas</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>Checkpoints</translation>
    </message>
    <message>
        <source>Checkpoints · %1</source>
        <translation>Checkpoints · %1</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Eventos</translation>
    </message>
    <message>
        <source>X axis:</source>
        <translation>Eixo X:</translation>
    </message>
    <message>
        <source>Global step</source>
        <translation>Passo global</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Época</translation>
    </message>
    <message>
        <source>Wall-clock time</source>
        <translation>Tempo real</translation>
    </message>
    <message>
        <source>Smoothing:</source>
        <translation>Suavização:</translation>
    </message>
    <message>
        <source>Weight of the bias-corrected exponential moving average; the raw steps stay visible behind it.</source>
        <translation>Peso da média móvel exponencial com correção de viés; os passos brutos continuam visíveis por trás.</translation>
    </message>
    <message>
        <source>Log scale for loss</source>
        <translation>Escala log. para a perda</translation>
    </message>
    <message>
        <source>Show raw steps</source>
        <translation>Mostrar passos brutos</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>Redefinir zoom</translation>
    </message>
    <message>
        <source>Follow all data again (also: double-click the plot). Drag to pan, wheel to zoom.</source>
        <translation>Voltar a mostrar todos os dados (ou: clique duplo no gráfico). Arraste para mover, use a roda para o zoom.</translation>
    </message>
    <message>
        <source>Right-click the plot to resume from a step</source>
        <translation>Clique com o botão direito no gráfico para retomar de um passo</translation>
    </message>
    <message>
        <source>Resume from here</source>
        <translation>Retomar daqui</translation>
    </message>
    <message>
        <source>Continue training from the selected checkpoint; older than the head, this is a rollback onto a new branch.</source>
        <translation>Continuar o treinamento a partir do checkpoint selecionado; se for mais antigo que o atual, é uma reversão para um novo ramo.</translation>
    </message>
    <message>
        <source>Verify</source>
        <translation>Verificar</translation>
    </message>
    <message>
        <source>Pin / unpin</source>
        <translation>Fixar / desafixar</translation>
    </message>
    <message>
        <source>Pinned checkpoints are never deleted by retention.</source>
        <translation>Checkpoints fixados nunca são excluídos pela retenção.</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Excluir…</translation>
    </message>
    <message>
        <source>Delete the file (never the head).</source>
        <translation>Excluir o arquivo (nunca o atual).</translation>
    </message>
    <message>
        <source>Show file</source>
        <translation>Mostrar arquivo</translation>
    </message>
    <message>
        <source>Open the folder holding the checkpoint file.</source>
        <translation>Abrir a pasta que contém o arquivo do checkpoint.</translation>
    </message>
    <message>
        <source>Show deleted</source>
        <translation>Mostrar excluídos</translation>
    </message>
    <message>
        <source>New run…</source>
        <translation>Nova execução…</translation>
    </message>
    <message>
        <source>Configure and start a new training run</source>
        <translation>Configurar e iniciar uma nova execução de treinamento</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausar</translation>
    </message>
    <message>
        <source>Pause or continue training at the next step</source>
        <translation>Pausar ou continuar o treinamento no próximo passo</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Parar</translation>
    </message>
    <message>
        <source>Graceful stop: write a checkpoint, then stop</source>
        <translation>Parada controlada: grava um checkpoint e depois para</translation>
    </message>
    <message>
        <source>Checkpoint now</source>
        <translation>Checkpoint agora</translation>
    </message>
    <message>
        <source>Write a checkpoint at the next step</source>
        <translation>Gravar um checkpoint no próximo passo</translation>
    </message>
    <message>
        <source>Simulate crash</source>
        <translation>Simular falha</translation>
    </message>
    <message>
        <source>Stop dead, as if the machine died: nothing more is saved</source>
        <translation>Parar de repente, como se a máquina tivesse caído: nada mais é salvo</translation>
    </message>
    <message>
        <source>Crash at step</source>
        <translation>Falhar no passo</translation>
    </message>
    <message>
        <source>Simulate a crash after the global step set beside</source>
        <translation>Simular uma falha após o passo global indicado ao lado</translation>
    </message>
    <message>
        <source>Simulate preemption</source>
        <translation>Simular preempção</translation>
    </message>
    <message>
        <source>A preemption notice: emergency checkpoint within the grace period, then stop</source>
        <translation>Um aviso de preempção: checkpoint de emergência dentro do prazo de tolerância, depois parada</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Retomar</translation>
    </message>
    <message>
        <source>Resume the selected run from its latest usable checkpoint</source>
        <translation>Retomar a execução selecionada a partir do último checkpoint utilizável</translation>
    </message>
    <message>
        <source>Resume at</source>
        <translation>Retomar em</translation>
    </message>
    <message>
        <source>Resume (or roll back) at the epoch and step set beside</source>
        <translation>Retomar (ou reverter) na época e no passo indicados ao lado</translation>
    </message>
    <message>
        <source>Export plot…</source>
        <translation>Exportar gráfico…</translation>
    </message>
    <message>
        <source>Save the plots as PNG or PDF</source>
        <translation>Salvar os gráficos em PNG ou PDF</translation>
    </message>
    <message>
        <source>Export metrics as CSV…</source>
        <translation>Exportar métricas em CSV…</translation>
    </message>
    <message>
        <source>Every point, raw and smoothed</source>
        <translation>Todos os pontos, brutos e suavizados</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Treinamento</translation>
    </message>
    <message>
        <source>Global step after which the simulated crash happens</source>
        <translation>Passo global após o qual ocorre a falha simulada</translation>
    </message>
    <message>
        <source>grace </source>
        <translation>prazo </translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Grace period of the preemption notice (applies to the next start or resume)</source>
        <translation>Prazo de tolerância do aviso de preempção (vale para o próximo início ou retomada)</translation>
    </message>
    <message>
        <source>epoch </source>
        <translation>época </translation>
    </message>
    <message>
        <source>step </source>
        <translation>passo </translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Arquivo</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Sair</translation>
    </message>
    <message>
        <source>&amp;Training</source>
        <translation>&amp;Treinamento</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Exibir</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>&amp;Configurações</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Idioma</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>Padrão do sistema</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>A&amp;juda</translation>
    </message>
    <message>
        <source>About Savepoint</source>
        <translation>Sobre o Savepoint</translation>
    </message>
    <message>
        <source>&lt;b&gt;Savepoint %1&lt;/b&gt;&lt;br&gt;Watch, interrupt, roll back and resume neural-network training.&lt;br&gt;Home: %2</source>
        <translation>&lt;b&gt;Savepoint %1&lt;/b&gt;&lt;br&gt;Acompanhe, interrompa, reverta e retome o treinamento de redes neurais.&lt;br&gt;Pasta: %2</translation>
    </message>
    <message>
        <source>The language changes the next time Savepoint starts.</source>
        <translation>O idioma muda na próxima vez que o Savepoint for iniciado.</translation>
    </message>
    <message>
        <source>Training is running</source>
        <translation>O treinamento está em andamento</translation>
    </message>
    <message>
        <source>Stop training gracefully (write a checkpoint) and quit?</source>
        <translation>Parar o treinamento de forma controlada (gravando um checkpoint) e sair?</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>Continuar</translation>
    </message>
    <message>
        <source>Export plot</source>
        <translation>Exportar gráfico</translation>
    </message>
    <message>
        <source>PNG image (*.png);;PDF document (*.pdf)</source>
        <translation>Imagem PNG (*.png);;Documento PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Plot saved to %1</source>
        <translation>Gráfico salvo em %1</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>Não foi possível gravar %1</translation>
    </message>
    <message>
        <source>Export metrics</source>
        <translation>Exportar métricas</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Metrics saved to %1</source>
        <translation>Métricas salvas em %1</translation>
    </message>
    <message>
        <source>Check the file&apos;s size, footer and checksum (built from SHA-256s; see the README&apos;s file format).</source>
        <translation>Verifica o tamanho do arquivo, o rodapé e o checksum (feito de SHA-256; veja o formato do arquivo no README).</translation>
    </message>
    <message>
        <source>Start…</source>
        <translation>Iniciar…</translation>
    </message>
    <message>
        <source>Run the demo</source>
        <translation>Executar a demonstração</translation>
    </message>
    <message>
        <source>A one-minute synthetic run: a crash, then a rollback</source>
        <translation>Uma execução sintética de um minuto: uma falha e depois uma reversão</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>Posições</translation>
    </message>
    <message>
        <source>Metrics plots</source>
        <translation>Gráficos das métricas</translation>
    </message>
    <message>
        <source>Loss plot</source>
        <translation>Gráfico da perda</translation>
    </message>
    <message>
        <source>Accuracy plot</source>
        <translation>Gráfico da acurácia</translation>
    </message>
    <message>
        <source>Epoch to resume at</source>
        <translation>Época em que retomar</translation>
    </message>
    <message>
        <source>Step to resume at (the last completed step of that epoch)</source>
        <translation>Passo em que retomar (o último passo concluído dessa época)</translation>
    </message>
    <message>
        <source>A run is already training in this window; stop it first.</source>
        <translation>Uma execução já está treinando nesta janela; pare-a primeiro.</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparar</translation>
    </message>
    <message>
        <source>Ctrl- or Shift-click more runs to compare their curves and settings.</source>
        <translation>Ctrl- ou Shift-clique em outras execuções para comparar suas curvas e configurações.</translation>
    </message>
    <message>
        <source>Kill a worker…</source>
        <translation>Matar um worker…</translation>
    </message>
    <message>
        <source>SIGKILL one worker of the data-parallel job, as if its machine were lost</source>
        <translation>SIGKILL a um worker do job paralelo, como se a máquina dele fosse perdida</translation>
    </message>
    <message>
        <source>A data-parallel job is running</source>
        <translation>Um job paralelo está em execução</translation>
    </message>
    <message>
        <source>Send it the preemption notice (every worker writes one checkpoint) and quit?</source>
        <translation>Enviar o aviso de preempção (cada worker grava um checkpoint) e sair?</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::MetricsPlot</name>
    <message>
        <source>%1 · lr %2</source>
        <translation>%1 · lr %2</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Perda</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Acurácia</translation>
    </message>
    <message>
        <source>checkpoint</source>
        <translation>checkpoint</translation>
    </message>
    <message>
        <source>Global step</source>
        <translation>Passo global</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Época</translation>
    </message>
    <message>
        <source>Wall-clock time since the run started (h:m:s)</source>
        <translation>Tempo real desde o início da execução (h:m:s)</translation>
    </message>
    <message>
        <source>branch %1 (abandoned)</source>
        <translation>ramo %1 (abandonado)</translation>
    </message>
    <message>
        <source>branch %1</source>
        <translation>ramo %1</translation>
    </message>
    <message>
        <source>validation (per epoch)</source>
        <translation>validação (por época)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Branch %1, abandoned&lt;/b&gt; (lost work, recomputed later)</source>
        <translation>&lt;b&gt;Ramo %1, abandonado&lt;/b&gt; (trabalho perdido, recalculado depois)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Branch %1&lt;/b&gt;</source>
        <translation>&lt;b&gt;Ramo %1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Global step %1 (epoch %2, step %3)</source>
        <translation>Passo global %1 (época %2, passo %3)</translation>
    </message>
    <message>
        <source>Loss %1 (smoothed %2)</source>
        <translation>Perda %1 (suavizada %2)</translation>
    </message>
    <message>
        <source>Accuracy %1 (smoothed %2)</source>
        <translation>Acurácia %1 (suavizada %2)</translation>
    </message>
    <message>
        <source>Time since start %1</source>
        <translation>Tempo desde o início %1</translation>
    </message>
    <message>
        <source>Validation: loss %1, accuracy %2</source>
        <translation>Validação: perda %1, acurácia %2</translation>
    </message>
    <message>
        <source>Resume from here: epoch %1, step %2 (global step %3)</source>
        <translation>Retomar daqui: época %1, passo %2 (passo global %3)</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>Redefinir zoom</translation>
    </message>
    <message>
        <source>Savepoint metrics</source>
        <translation>Métricas do Savepoint</translation>
    </message>
    <message>
        <source>lost work (recomputed)</source>
        <translation>trabalho perdido (recalculado)</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::NewRunDialog</name>
    <message>
        <source>No GPU can train here; choose “cpu” or “auto”</source>
        <translation>Nenhuma GPU pode treinar aqui; escolha “cpu” ou “auto”</translation>
    </message>
    <message>
        <source>no GPU: %1</source>
        <translation>sem GPU: %1</translation>
    </message>
    <message>
        <source>GPU: %1</source>
        <translation>GPU: %1</translation>
    </message>
    <message>
        <source>Enter the storage&apos;s address, such as s3://my-bucket/checkpoints</source>
        <translation>Digite o endereço do armazenamento, como s3://my-bucket/checkpoints</translation>
    </message>
    <message>
        <source>Remote storage</source>
        <translation>Armazenamento remoto</translation>
    </message>
    <message>
        <source>Remote storage is for a run trained in this window (Workers 1), not yet for a job</source>
        <translation>O armazenamento remoto é para uma execução treinada nesta janela (Workers 1), ainda não para um job</translation>
    </message>
    <message>
        <source>Each checkpoint is also uploaded there in the background (AWS S3, MinIO, Ceph, Swift), with the credentials of AWS_ACCESS_KEY_ID or ~/.aws/credentials and AWS_ENDPOINT_URL; File ▸ Open runs from remote storage… brings the run back on another machine.</source>
        <translation>Cada checkpoint também é enviado para lá em segundo plano (AWS S3, MinIO, Ceph, Swift), com as credenciais de AWS_ACCESS_KEY_ID ou ~/.aws/credentials e AWS_ENDPOINT_URL; Arquivo ▸ Abrir execuções do armazenamento remoto… traz a execução de volta em outra máquina.</translation>
    </message>
    <message>
        <source>optional: s3://bucket/prefix</source>
        <translation>opcional: s3://bucket/prefixo</translation>
    </message>
    <message>
        <source>A job of several workers waits for each checkpoint: choose “wait”</source>
        <translation>Um job de vários workers espera cada checkpoint: escolha “wait”</translation>
    </message>
    <message>
        <source>File…</source>
        <translation>Arquivo…</translation>
    </message>
    <message>
        <source>Tensors saved with torch.save</source>
        <translation>Tensores salvos com torch.save</translation>
    </message>
    <message>
        <source>PyTorch files (*.pt *.pth);;All files (*)</source>
        <translation>Arquivos PyTorch (*.pt *.pth);;Todos os arquivos (*)</translation>
    </message>
    <message>
        <source>TorchScript model</source>
        <translation>Modelo TorchScript</translation>
    </message>
    <message>
        <source>TorchScript files (*.pt *.pth);;All files (*)</source>
        <translation>Arquivos TorchScript (*.pt *.pth);;Todos os arquivos (*)</translation>
    </message>
    <message>
        <source>mlp: one hidden layer; dnn: three; cnn: convolutional; or your own TorchScript file (torch.jit.script(model).save(&quot;model.pt&quot;)).</source>
        <translation>mlp: uma camada oculta; dnn: três; cnn: convolucional; ou seu próprio arquivo TorchScript (torch.jit.script(model).save(&quot;model.pt&quot;)).</translation>
    </message>
    <message>
        <source>ce: cross-entropy on class labels; mse: mean squared error on float targets (TorchScript models).</source>
        <translation>ce: entropia cruzada sobre rótulos de classe; mse: erro quadrático médio sobre alvos reais (modelos TorchScript).</translation>
    </message>
    <message>
        <source>Check model and data</source>
        <translation>Verificar modelo e dados</translation>
    </message>
    <message>
        <source>Loads the model and the data and runs one batch forward: shapes, labels, parameters.</source>
        <translation>Carrega o modelo e os dados e passa um lote adiante: formas, rótulos, parâmetros.</translation>
    </message>
    <message>
        <source>Press “Check model and data” first: a model or data file must pass the dry run</source>
        <translation>Clique primeiro em “Verificar modelo e dados”: um arquivo de modelo ou de dados precisa passar no teste a seco</translation>
    </message>
    <message>
        <source>Dry run passed:</source>
        <translation>Teste a seco aprovado:</translation>
    </message>
    <message>
        <source>Dry run failed: %1</source>
        <translation>Teste a seco falhou: %1</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Perda</translation>
    </message>
    <message>
        <source>%1: no such file (expected a file written by torch.save)</source>
        <translation>%1: arquivo inexistente (esperado um arquivo gravado por torch.save)</translation>
    </message>
    <message>
        <source>Expected %1; found %2.</source>
        <translation>Esperado: %1; encontrado: %2.</translation>
    </message>
    <message>
        <source>Fashion-MNIST is not installed in %1 (install Debian&apos;s dataset-fashion-mnist, set SAVEPOINT_FASHION_MNIST_DIR, or choose “synthetic”)</source>
        <translation>O Fashion-MNIST não está instalado em %1 (instale o pacote dataset-fashion-mnist do Debian, defina SAVEPOINT_FASHION_MNIST_DIR ou escolha “synthetic”)</translation>
    </message>
    <message>
        <source>Choose “synthetic”, “fashion-mnist” or a directory with MNIST-format files</source>
        <translation>Escolha “synthetic”, “fashion-mnist” ou um diretório com arquivos no formato MNIST</translation>
    </message>
    <message>
        <source>%1 is not a directory (expected “synthetic”, “fashion-mnist” or a directory with MNIST-format files)</source>
        <translation>%1 não é um diretório (esperado “synthetic”, “fashion-mnist” ou um diretório com arquivos no formato MNIST)</translation>
    </message>
    <message>
        <source>%1 has no %2 (or %2.gz)</source>
        <translation>%1 não contém %2 (nem %2.gz)</translation>
    </message>
    <message>
        <source>New training run</source>
        <translation>Nova execução de treinamento</translation>
    </message>
    <message>
        <source>Directory…</source>
        <translation>Diretório…</translation>
    </message>
    <message>
        <source>MNIST-format dataset directory</source>
        <translation>Diretório do conjunto de dados no formato MNIST</translation>
    </message>
    <message>
        <source>one full pass</source>
        <translation>uma passada completa</translation>
    </message>
    <message>
        <source>default</source>
        <translation>padrão</translation>
    </message>
    <message>
        <source>Run name</source>
        <translation>Nome da execução</translation>
    </message>
    <message>
        <source>Letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;; becomes a folder name.</source>
        <translation>Letras, dígitos, &apos;.&apos;, &apos;_&apos; e &apos;-&apos;; vira o nome de uma pasta.</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>Conjunto de dados</translation>
    </message>
    <message>
        <source>“synthetic” (generated, no download), “fashion-mnist”, or a directory with the four MNIST-format files.</source>
        <translation>“synthetic” (gerado, sem download), “fashion-mnist” ou um diretório com os quatro arquivos no formato MNIST.</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>Épocas</translation>
    </message>
    <message>
        <source>Steps per epoch</source>
        <translation>Passos por época</translation>
    </message>
    <message>
        <source>0: one full pass over the training split.</source>
        <translation>0: uma passada completa pelo conjunto de treino.</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Tamanho do lote</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Taxa de aprendizado</translation>
    </message>
    <message>
        <source>Greater than 0 and at most 10, e.g. 0.001 or 1e-3.</source>
        <translation>Maior que 0 e no máximo 10, por ex. 0.001 ou 1e-3.</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Otimizador</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Semente</translation>
    </message>
    <message>
        <source>Same seed, same data order and initial weights.</source>
        <translation>Mesma semente, mesma ordem dos dados e mesmos pesos iniciais.</translation>
    </message>
    <message>
        <source>Save every</source>
        <translation>Salvar a cada</translation>
    </message>
    <message>
        <source>“epoch”, or a number of steps.</source>
        <translation>“epoch” ou um número de passos.</translation>
    </message>
    <message>
        <source>Keep newest</source>
        <translation>Manter os mais recentes</translation>
    </message>
    <message>
        <source>Older checkpoints are deleted (best, head and pinned ones are kept).</source>
        <translation>Checkpoints mais antigos são excluídos (o melhor, o atual e os fixados são mantidos).</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Dispositivo</translation>
    </message>
    <message>
        <source>auto: the GPU when LibTorch sees one, else the CPU.</source>
        <translation>auto: a GPU quando o LibTorch encontra uma, senão a CPU.</translation>
    </message>
    <message>
        <source>CPU threads</source>
        <translation>Threads de CPU</translation>
    </message>
    <message>
        <source>When a save is still writing</source>
        <translation>Quando um salvamento ainda está gravando</translation>
    </message>
    <message>
        <source>wait: training waits for it; skip: this save is skipped; defer: this save is taken as soon as that one is committed.</source>
        <translation>wait: o treinamento espera; skip: este salvamento é pulado; defer: este salvamento é feito assim que o anterior for confirmado.</translation>
    </message>
    <message>
        <source>Start training</source>
        <translation>Iniciar treinamento</translation>
    </message>
    <message>
        <source>Use 1 to 64 characters from A–Z, a–z, 0–9, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;, not starting with &apos;.&apos;</source>
        <translation>Use de 1 a 64 caracteres entre A–Z, a–z, 0–9, &apos;.&apos;, &apos;_&apos; e &apos;-&apos;, sem começar com &apos;.&apos;</translation>
    </message>
    <message>
        <source>A run named “%1” already exists; resume it instead</source>
        <translation>Já existe uma execução chamada “%1”; retome-a em vez disso</translation>
    </message>
    <message>
        <source>Enter a number such as 0.001 or 1e-3</source>
        <translation>Digite um número como 0.001 ou 1e-3</translation>
    </message>
    <message>
        <source>Enter a whole number from 0 to 18446744073709551615</source>
        <translation>Digite um número inteiro de 0 a 18446744073709551615</translation>
    </message>
    <message>
        <source>Enter “epoch” or a positive number of steps</source>
        <translation>Digite “epoch” ou um número positivo de passos</translation>
    </message>
    <message>
        <source>%1: expected %2, found %3.</source>
        <translation>%1: esperado %2, encontrado %3.</translation>
    </message>
    <message>
        <source>a whole number from %1 to %2</source>
        <translation>um número inteiro de %1 a %2</translation>
    </message>
    <message>
        <source>a number greater than %1 and at most %2</source>
        <translation>um número maior que %1 e no máximo %2</translation>
    </message>
    <message>
        <source>a number from %1 to %2</source>
        <translation>um número de %1 a %2</translation>
    </message>
    <message>
        <source>one of %1</source>
        <translation>um dos valores %1</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>Checkpoint</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Época</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Passo</translation>
    </message>
    <message>
        <source>1: trains in this window. 2 or more: a data-parallel job of that many processes under torchrun (PyTorch's launcher), each training on its own batch of the size above.</source>
        <translation>1: treina nesta janela. 2 ou mais: um job paralelo nos dados com esse número de processos sob o torchrun (o lançador do PyTorch), cada um treinando no seu próprio lote do tamanho acima.</translation>
    </message>
    <message>
        <source>How often torchrun restarts the whole job from its last checkpoint when a worker is lost.</source>
        <translation>Quantas vezes o torchrun reinicia o job inteiro a partir do último checkpoint quando um worker é perdido.</translation>
    </message>
    <message>
        <source>torchrun was not found on PATH (on Debian: apt install python3-torch)</source>
        <translation>torchrun não foi encontrado no PATH (no Debian: apt install python3-torch)</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>Workers</translation>
    </message>
    <message>
        <source>Restarts</source>
        <translation>Reinícios</translation>
    </message>
    <message>
        <source>1 (trains in this window)</source>
        <translation>1 (treina nesta janela)</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::RunComparisonView</name>
    <message>
        <source>Cannot compare these runs: %1</source>
        <translation>Não é possível comparar estas execuções: %1</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::RunDataView</name>
    <message>
        <source>Cannot read the run list: %1</source>
        <translation>Não foi possível ler a lista de execuções: %1</translation>
    </message>
    <message>
        <source>Cannot read the registry: %1</source>
        <translation>Não foi possível ler o registro: %1</translation>
    </message>
    <message>
        <source>Verifying checkpoint #%1…</source>
        <translation>Verificando o checkpoint nº %1…</translation>
    </message>
    <message>
        <source>Checkpoint #%1 verified: %2</source>
        <translation>Checkpoint nº %1 verificado: %2</translation>
    </message>
    <message>
        <source>Checkpoint #%1 is damaged: %2</source>
        <translation>O checkpoint nº %1 está danificado: %2</translation>
    </message>
    <message>
        <source>Checkpoint #%1 is damaged and will not be resumed from: %2</source>
        <translation>O checkpoint nº %1 está danificado e não será usado para retomar: %2</translation>
    </message>
    <message>
        <source>Checkpoint #%1 unpinned</source>
        <translation>Checkpoint nº %1 desafixado</translation>
    </message>
    <message>
        <source>Checkpoint #%1 pinned</source>
        <translation>Checkpoint nº %1 fixado</translation>
    </message>
    <message>
        <source>Cannot change the pin: %1</source>
        <translation>Não foi possível alterar a fixação: %1</translation>
    </message>
    <message>
        <source>Checkpoint #%1 is the head (where training resumes); it cannot be deleted.</source>
        <translation>O checkpoint nº %1 é o atual (de onde o treinamento retoma); não pode ser excluído.</translation>
    </message>
    <message>
        <source>Checkpoint #%1 is not one of this run&apos;s.</source>
        <translation>O checkpoint nº %1 não é desta execução.</translation>
    </message>
    <message>
        <source>Checkpoint #%1 is %2; only a committed checkpoint can be pinned.</source>
        <translation>O checkpoint nº %1 está %2; só um checkpoint confirmado pode ser fixado.</translation>
    </message>
    <message>
        <source>Stop the training of this run before deleting its checkpoints.</source>
        <translation>Pare o treinamento desta execução antes de excluir seus checkpoints.</translation>
    </message>
    <message>
        <source>Delete checkpoint?</source>
        <translation>Excluir checkpoint?</translation>
    </message>
    <message>
        <source>Delete checkpoint #%1 (epoch %2, step %3)? The file is removed; the row stays in the history as deleted.</source>
        <translation>Excluir o checkpoint nº %1 (época %2, passo %3)? O arquivo é removido; a linha fica no histórico como excluída.</translation>
    </message>
    <message>
        <source>Checkpoint #%1 deleted</source>
        <translation>Checkpoint nº %1 excluído</translation>
    </message>
    <message>
        <source>Cannot delete checkpoint #%1: %2</source>
        <translation>Não foi possível excluir o checkpoint nº %1: %2</translation>
    </message>
    <message>
        <source>Cannot open %1</source>
        <translation>Não foi possível abrir %1</translation>
    </message>
    <message>
        <source>checksum %1 matches the footer and the registry (%2 bytes)</source>
        <translation>checksum %1 confere com o rodapé e o registro (%2 bytes)</translation>
    </message>
    <message numerus="yes">
        <source>Run “%1”: %n event(s) recorded in the registry</source>
        <translation>
            <numerusform>Execução “%1”: %n evento registrado no registro</numerusform>
            <numerusform>Execução “%1”: %n eventos registrados no registro</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot read the history of this run: %1</source>
        <translation>Não foi possível ler o histórico desta execução: %1</translation>
    </message>
    <message>
        <source>Cannot verify checkpoint #%1: %2</source>
        <translation>Não foi possível verificar o checkpoint #%1: %2</translation>
    </message>
    <message>
        <source>It is pinned: you chose to keep it, and retention never deletes it.</source>
        <translation>Ele está fixado: você escolheu mantê-lo, e a retenção nunca o exclui.</translation>
    </message>
    <message>
        <source>A branch starts from it: that branch could no longer be rolled back to this point.</source>
        <translation>Um ramo parte dele: esse ramo não poderia mais ser revertido a este ponto.</translation>
    </message>
    <message>
        <source>No file manager could be opened. The checkpoint file is %1 (its path is copied to the clipboard).</source>
        <translation>Nenhum gerenciador de arquivos pôde ser aberto. O arquivo do checkpoint é %1 (o caminho foi copiado para a área de transferência).</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::RunListModel</name>
    <message>
        <source>worker %1 on %2: %3 steps, %4 s computing, %5 s of it in the all-reduce</source>
        <translation>worker %1 em %2: %3 passos, %4 s de cálculo, %5 s deles no all-reduce</translation>
    </message>
    <message numerus="yes">
        <source>torchrun restarted it %n time(s) after a lost worker</source>
        <translation>
            <numerusform>o torchrun o reiniciou %n vez após perder um worker</numerusform>
            <numerusform>o torchrun o reiniciou %n vezes após perder um worker</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>A data-parallel job of %n worker(s) under torchrun</source>
        <translation>
            <numerusform>Um job de dados em paralelo de %n worker sob o torchrun</numerusform>
            <numerusform>Um job de dados em paralelo de %n workers sob o torchrun</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n worker(s)</source>
        <translation>
            <numerusform>%1 · %n worker</numerusform>
            <numerusform>%1 · %n workers</numerusform>
        </translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>created</source>
        <translation>criada</translation>
    </message>
    <message>
        <source>running</source>
        <translation>em execução</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>pausada</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>interrompida</translation>
    </message>
    <message>
        <source>preempted</source>
        <translation>preemptada</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>parada</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>concluída</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>falhou</translation>
    </message>
    <message numerus="yes">
        <source>%n branch(es): each rollback starts a new one; the old ones are kept</source>
        <translation>
            <numerusform>%n ramo: cada reversão inicia um novo; os antigos são mantidos</numerusform>
            <numerusform>%n ramos: cada reversão inicia um novo; os antigos são mantidos</numerusform>
        </translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Execução</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Progresso</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Perda</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Acurácia</translation>
    </message>
    <message>
        <source>Val. acc.</source>
        <translation>Acur. valid.</translation>
    </message>
    <message>
        <source>Branches</source>
        <translation>Ramos</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Dispositivo</translation>
    </message>
    <message>
        <source>%1 % (%2/%3)</source>
        <translation>%1 % (%2/%3)</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::StatusBarFields</name>
    <message>
        <source>Checkpoints copied to %1: %2 uploaded, %3 pending, %4 failed (retried)</source>
        <translation>Checkpoints copiados para %1: %2 enviados, %3 pendentes, %4 com falha (tentados de novo)</translation>
    </message>
    <message>
        <source>S3: %1 uploaded, %2 waiting (%3 MB)</source>
        <translation>S3: %1 enviados, %2 aguardando (%3 MB)</translation>
    </message>
    <message>
        <source>S3: all %1 uploaded</source>
        <translation>S3: todos os %1 enviados</translation>
    </message>
    <message>
        <source>Diverged (NaN or infinite loss)</source>
        <translation>Divergiu (perda NaN ou infinita)</translation>
    </message>
    <message>
        <source>Where the model trains</source>
        <translation>Onde o modelo treina</translation>
    </message>
    <message>
        <source>Training steps per second in this session</source>
        <translation>Passos de treinamento por segundo nesta sessão</translation>
    </message>
    <message>
        <source>Estimated time until the last step</source>
        <translation>Tempo estimado até o último passo</translation>
    </message>
    <message>
        <source>Time since the last checkpoint was committed: the work a crash now would lose</source>
        <translation>Tempo desde o último checkpoint confirmado: o trabalho que uma falha agora perderia</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>Loading</source>
        <translation>Carregando</translation>
    </message>
    <message>
        <source>Replaying to the chosen step</source>
        <translation>Repetindo até o passo escolhido</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Treinando</translation>
    </message>
    <message>
        <source>Validating</source>
        <translation>Validando</translation>
    </message>
    <message>
        <source>Checkpointing</source>
        <translation>Gravando checkpoint</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Pausado</translation>
    </message>
    <message>
        <source>Waiting for disk space</source>
        <translation>Aguardando espaço em disco</translation>
    </message>
    <message>
        <source>validating %1/%2</source>
        <translation>validando %1/%2</translation>
    </message>
    <message>
        <source>%1 — training in another process</source>
        <translation>%1 — treinando em outro processo</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Concluído</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Device: %1</source>
        <translation>Dispositivo: %1</translation>
    </message>
    <message>
        <source>%1 steps/s</source>
        <translation>%1 passos/s</translation>
    </message>
    <message>
        <source>ETA %1</source>
        <translation>Restam %1</translation>
    </message>
    <message>
        <source>epoch %1/%2 · step %3/%4</source>
        <translation>época %1/%2 · passo %3/%4</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>Ocioso</translation>
    </message>
    <message>
        <source>Device: –</source>
        <translation>Dispositivo: –</translation>
    </message>
    <message>
        <source>– steps/s</source>
        <translation>– passos/s</translation>
    </message>
    <message>
        <source>ETA –</source>
        <translation>Restam –</translation>
    </message>
    <message>
        <source>No checkpoint yet</source>
        <translation>Nenhum checkpoint ainda</translation>
    </message>
    <message>
        <source>Last checkpoint %1 ago</source>
        <translation>Último checkpoint há %1</translation>
    </message>
    <message>
        <source>Interrupted (crash)</source>
        <translation>Interrompido (falha)</translation>
    </message>
    <message>
        <source>Preempted</source>
        <translation>Preemptado</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>Parado</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Falhou</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::TrainingController</name>
    <message>
        <source>&lt;b&gt;Resumed on another device.&lt;/b&gt; Checkpoint #%1 was trained on another device, GPU model or library version than this session trains on. Training goes on, but its bits will differ from a run that never stopped; the Events pane says what differs.</source>
        <translation>&lt;b&gt;Retomado em outro dispositivo.&lt;/b&gt; O checkpoint nº %1 foi treinado em outro dispositivo, modelo de GPU ou versão de biblioteca do que esta sessão usa. O treino continua, mas seus bits serão diferentes de um treino que nunca parou; o painel Eventos diz o que difere.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Low disk.&lt;/b&gt; The home&apos;s file system is running out of room for checkpoints: %1</source>
        <translation>&lt;b&gt;Disco quase cheio.&lt;/b&gt; O sistema de arquivos da pasta de trabalho está ficando sem espaço para checkpoints: %1</translation>
    </message>
    <message>
        <source>epoch %1, step %2</source>
        <translation>época %1, passo %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Training diverged&lt;/b&gt;: %1</source>
        <translation>&lt;b&gt;O treinamento divergiu&lt;/b&gt;: %1</translation>
    </message>
    <message>
        <source>Roll back to the last good checkpoint…</source>
        <translation>Reverter para o último checkpoint bom…</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Retomar</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>Continuar</translation>
    </message>
    <message>
        <source>A run is already training in this window; stop it first.</source>
        <translation>Já há uma execução treinando nesta janela; pare-a primeiro.</translation>
    </message>
    <message>
        <source>Starting run “%1”…</source>
        <translation>Iniciando a execução “%1”…</translation>
    </message>
    <message>
        <source>A run is already training in this window; stop it before resuming.</source>
        <translation>Já há uma execução treinando nesta janela; pare-a antes de retomar.</translation>
    </message>
    <message>
        <source>Resuming run “%1”…</source>
        <translation>Retomando a execução “%1”…</translation>
    </message>
    <message>
        <source>Run “%1” was trained on the dataset in %2, which is not there any more.</source>
        <translation>A execução “%1” foi treinada com o conjunto de dados em %2, que não está mais lá.</translation>
    </message>
    <message>
        <source>Where is the dataset of run “%1” now? (It was in %2)</source>
        <translation>Onde está agora o conjunto de dados da execução “%1”? (Estava em %2)</translation>
    </message>
    <message>
        <source>Not resumed: run “%1” was trained on the dataset in %2, which is not there any more. Resume again and choose the folder it moved to.</source>
        <translation>Não retomada: a execução “%1” foi treinada com o conjunto de dados em %2, que não está mais lá. Retome de novo e escolha a pasta para onde ele foi movido.</translation>
    </message>
    <message>
        <source>Resuming run “%1” on the dataset in %2 (checked against what it was trained on).</source>
        <translation>Retomando a execução “%1” com o conjunto de dados em %2 (conferido com o que ela usou no treino).</translation>
    </message>
    <message>
        <source>Select a checkpoint in the table first.</source>
        <translation>Selecione primeiro um checkpoint na tabela.</translation>
    </message>
    <message>
        <source>Checkpoint #%1 is damaged (%2) and cannot be resumed from; pick another one.</source>
        <translation>O checkpoint nº %1 está danificado (%2) e não pode ser usado para retomar; escolha outro.</translation>
    </message>
    <message>
        <source>Roll back?</source>
        <translation>Reverter?</translation>
    </message>
    <message>
        <source>Resume from checkpoint #%1 (epoch %2, step %3)? It is older than the head, so training continues on a new branch; the current branch stays visible.</source>
        <translation>Retomar do checkpoint nº %1 (época %2, passo %3)? Ele é mais antigo que o atual, então o treinamento continua em um novo ramo; o ramo atual continua visível.</translation>
    </message>
    <message>
        <source>Stop the training first, then resume from a point on the plot.</source>
        <translation>Pare o treinamento primeiro e depois retome de um ponto do gráfico.</translation>
    </message>
    <message>
        <source>Resume from the plot?</source>
        <translation>Retomar a partir do gráfico?</translation>
    </message>
    <message>
        <source>Resume at epoch %1, step %2 (global step %3)? Training restarts from the nearest checkpoint before it and replays the steps in between; later steps stay on the old branch.</source>
        <translation>Retomar na época %1, passo %2 (passo global %3)? O treinamento recomeça do checkpoint anterior mais próximo e repete os passos intermediários; os passos posteriores ficam no ramo antigo.</translation>
    </message>
    <message>
        <source>Stopping: writing a checkpoint, then stopping…</source>
        <translation>Parando: gravando um checkpoint e depois parando…</translation>
    </message>
    <message>
        <source>Simulating a crash now.</source>
        <translation>Simulando uma falha agora.</translation>
    </message>
    <message>
        <source>A crash will be simulated after global step %1.</source>
        <translation>Uma falha será simulada após o passo global %1.</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>&lt;b&gt;Preemption notice.&lt;/b&gt; The instance will be reclaimed in &lt;b&gt;%1&lt;/b&gt;. Writing an emergency checkpoint…</source>
        <translation>&lt;b&gt;Aviso de preempção.&lt;/b&gt; A instância será retomada pelo provedor em &lt;b&gt;%1&lt;/b&gt;. Gravando um checkpoint de emergência…</translation>
    </message>
    <message>
        <source>&lt;b&gt;Preempted.&lt;/b&gt; %1&lt;br&gt;The instance would be reclaimed in &lt;b&gt;%2&lt;/b&gt;.</source>
        <translation>&lt;b&gt;Preemptado.&lt;/b&gt; %1&lt;br&gt;A instância seria retomada pelo provedor em &lt;b&gt;%2&lt;/b&gt;.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Instance reclaimed.&lt;/b&gt; %1&lt;br&gt;Resume to continue from the emergency checkpoint.</source>
        <translation>&lt;b&gt;Instância retomada pelo provedor.&lt;/b&gt; %1&lt;br&gt;Retome para continuar do checkpoint de emergência.</translation>
    </message>
    <message>
        <source>&lt;b&gt;A checkpoint could not be written:&lt;/b&gt; %1&lt;br&gt;Training is paused; the previous checkpoint and the registry are intact. Free some space, then continue.</source>
        <translation>&lt;b&gt;Não foi possível gravar um checkpoint:&lt;/b&gt; %1&lt;br&gt;O treinamento está pausado; o checkpoint anterior e o registro estão intactos. Libere espaço e continue.</translation>
    </message>
    <message>
        <source>Training could not run: %1</source>
        <translation>O treinamento não pôde ser executado: %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Crashed&lt;/b&gt; (simulated): %1. “Resume” continues from the latest checkpoint; to go further back, select one in the Checkpoints table and use “Resume from here”.</source>
        <translation>&lt;b&gt;Falhou&lt;/b&gt; (simulado): %1. “Retomar” continua do último checkpoint; para voltar mais, selecione um na tabela Checkpoints e use “Retomar daqui”.</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>O treinamento falhou: %1</translation>
    </message>
    <message>
        <source>Stopped: %1</source>
        <translation>Parado: %1</translation>
    </message>
    <message>
        <source>Finished: %1</source>
        <translation>Concluído: %1</translation>
    </message>
    <message>
        <source>%1 received: closing.</source>
        <translation>%1 recebido: fechando.</translation>
    </message>
    <message>
        <source>%1 received: a preemption notice. Savepoint closes once the emergency checkpoint is written.</source>
        <translation>%1 recebido: um aviso de preempção. O Savepoint fecha assim que o checkpoint de emergência for gravado.</translation>
    </message>
    <message>
        <source>The armed crash is disarmed.</source>
        <translation>A falha armada foi desarmada.</translation>
    </message>
    <message numerus="yes">
        <source>Resume at epoch %1, step %2 (global step %3)? This starts a new branch; the current branch, with %Ln step(s) past this point, stays in history.</source>
        <translation>
            <numerusform>Retomar na época %1, passo %2 (passo global %3)? Isso inicia um novo ramo; o ramo atual, com %Ln passo após este ponto, fica no histórico.</numerusform>
            <numerusform>Retomar na época %1, passo %2 (passo global %3)? Isso inicia um novo ramo; o ramo atual, com %Ln passos após este ponto, fica no histórico.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>savepoint::ui::RollbackDialog</name>
    <message>
        <source>Roll back to the last good checkpoint</source>
        <translation>Reverter para o último checkpoint bom</translation>
    </message>
    <message>
        <source>Training diverged. Roll back to checkpoint #%1 (%2) and continue on a new branch with a smaller learning rate; the branch that diverged is kept.</source>
        <translation>O treinamento divergiu. Reverta para o checkpoint nº %1 (%2) e continue num novo ramo com uma taxa de aprendizado menor; o ramo que divergiu é mantido.</translation>
    </message>
    <message>
        <source>Roll back</source>
        <translation>Reverter</translation>
    </message>
    <message>
        <source>Enter a number such as 0.001 or 1e-3</source>
        <translation>Digite um número como 0.001 ou 1e-3</translation>
    </message>
    <message>
        <source>Expected %1; found %2.</source>
        <translation>Esperado: %1; encontrado: %2.</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::JobController</name>
    <message>
        <source>Kill a worker</source>
        <translation>Matar um worker</translation>
    </message>
    <message>
        <source>SIGKILL, as if its machine were lost. The other workers stop too; torchrun restarts the job from its last checkpoint.</source>
        <translation>SIGKILL, como se a máquina fosse perdida. Os outros workers também param; o torchrun reinicia o job a partir do último checkpoint.</translation>
    </message>
    <message numerus="yes">
        <source>Starting run “%1” with %n worker(s) under torchrun (up to %2 restart(s))…</source>
        <translation>
            <numerusform>Iniciando a execução “%1” com %n worker sob o torchrun (até %2 reinício(s))…</numerusform>
            <numerusform>Iniciando a execução “%1” com %n workers sob o torchrun (até %2 reinício(s))…</numerusform>
        </translation>
    </message>
    <message>
        <source>No worker is running right now (the job may be restarting).</source>
        <translation>Nenhum worker está rodando agora (o job pode estar reiniciando).</translation>
    </message>
    <message>
        <source>Worker %1 (process %2)</source>
        <translation>Worker %1 (processo %2)</translation>
    </message>
    <message>
        <source>Killed worker %1 (SIGKILL to process %2).</source>
        <translation>Worker %1 morto (SIGKILL ao processo %2).</translation>
    </message>
    <message>
        <source>Preemption notice (SIGTERM) sent to the job: every worker stops at the same step and one emergency checkpoint is written.</source>
        <translation>Aviso de preempção (SIGTERM) enviado ao job: cada worker para no mesmo passo e um checkpoint de emergência é gravado.</translation>
    </message>
    <message>
        <source>worker %1: %2</source>
        <translation>worker %1: %2</translation>
    </message>
    <message>
        <source>torchrun: %1</source>
        <translation>torchrun: %1</translation>
    </message>
    <message>
        <source>The job of run “%1” finished.</source>
        <translation>O job da execução “%1” terminou.</translation>
    </message>
    <message>
        <source>The job of run “%1” stopped with a checkpoint; Resume continues it.</source>
        <translation>O job da execução “%1” parou com um checkpoint; Retomar o continua.</translation>
    </message>
    <message>
        <source>The job of run “%1” ended with exit status %2 (a worker failed and no restart was left, or a worker refused the settings: see the Events pane).</source>
        <translation>O job da execução “%1” terminou com o código %2 (um worker falhou sem reinícios restantes, ou um worker recusou as configurações: veja o painel Eventos).</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::DataParallelJob</name>
    <message>
        <source>A data-parallel job is already running from this window; stop it first.</source>
        <translation>Um job paralelo já está rodando a partir desta janela; pare-o primeiro.</translation>
    </message>
    <message>
        <source>torchrun was not found on PATH: data-parallel jobs use PyTorch's launcher (on Debian: apt install python3-torch).</source>
        <translation>torchrun não foi encontrado no PATH: jobs paralelos usam o lançador do PyTorch (no Debian: apt install python3-torch).</translation>
    </message>
    <message>
        <source>savepoint-cli was not found beside this program or on PATH: each worker of the job is one.</source>
        <translation>savepoint-cli não foi encontrado ao lado deste programa nem no PATH: cada worker do job é um.</translation>
    </message>
    <message>
        <source>torchrun (%1) did not start: %2</source>
        <translation>torchrun (%1) não iniciou: %2</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::RemoteController</name>
    <message>
        <source>Nothing was pulled: %1</source>
        <translation>Nada foi baixado: %1</translation>
    </message>
    <message>
        <source>Pulled run “%1” from %2 (checkpoints verified: %3, refused: %4); Resume continues from checkpoint #%5.</source>
        <translation>Execução “%1” baixada de %2 (checkpoints verificados: %3, recusados: %4); Retomar continua do checkpoint nº %5.</translation>
    </message>
    <message>
        <source>Pulling from %1…</source>
        <translation>Baixando de %1…</translation>
    </message>
    <message>
        <source>Remote storage refused: %1. Training goes on; its checkpoints are uploaded by a later resume that reaches the store.</source>
        <translation>O armazenamento remoto recusou: %1. O treino continua; seus checkpoints serão enviados por uma retomada posterior que alcance o armazenamento.</translation>
    </message>
    <message>
        <source>Remote storage refused: %1</source>
        <translation>O armazenamento remoto recusou: %1</translation>
    </message>
    <message>
        <source>Checkpoints of “%1” are uploaded to %2 as they are committed.</source>
        <translation>Os checkpoints de “%1” são enviados para %2 à medida que são confirmados.</translation>
    </message>
    <message>
        <source>Checking the remote storage %1…</source>
        <translation>Verificando o armazenamento remoto %1…</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::SystemPanel</name>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>This process and machine</source>
        <translation>Este processo e esta máquina</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>The training process&apos;s CPU time over the last second; 100 % is one core.</source>
        <translation>O tempo de CPU do processo de treinamento no último segundo; 100 % é um núcleo.</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Memória</translation>
    </message>
    <message>
        <source>The training process&apos;s resident memory.</source>
        <translation>A memória residente do processo de treinamento.</translation>
    </message>
    <message>
        <source>Available memory</source>
        <translation>Memória disponível</translation>
    </message>
    <message>
        <source>Memory the machine can still give without swapping.</source>
        <translation>A memória que a máquina ainda pode ceder sem usar swap.</translation>
    </message>
    <message>
        <source>Written</source>
        <translation>Escrito</translation>
    </message>
    <message>
        <source>Bytes the training process has written to storage: checkpoints and the registry.</source>
        <translation>Bytes que o processo de treinamento gravou no armazenamento: checkpoints e o registro.</translation>
    </message>
    <message>
        <source>Free disk</source>
        <translation>Disco livre</translation>
    </message>
    <message>
        <source>Free space on the file system of the home, where checkpoints go.</source>
        <translation>Espaço livre no sistema de arquivos da pasta de trabalho, onde ficam os checkpoints.</translation>
    </message>
    <message>
        <source>CPU %</source>
        <translation>CPU %</translation>
    </message>
    <message>
        <source>Memory (MiB)</source>
        <translation>Memória (MiB)</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Utilisation</source>
        <translation>Utilização</translation>
    </message>
    <message>
        <source>Share of the last sample period the GPU was running kernels.</source>
        <translation>Parcela do último período de amostragem em que a GPU executava kernels.</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>Memória da GPU</translation>
    </message>
    <message>
        <source>Memory in use on the GPU (every process), and its total.</source>
        <translation>Memória em uso na GPU (todos os processos), e o total.</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatura</translation>
    </message>
    <message>
        <source>The GPU&apos;s core temperature.</source>
        <translation>A temperatura do núcleo da GPU.</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>Potência</translation>
    </message>
    <message>
        <source>The board&apos;s power draw.</source>
        <translation>O consumo de energia da placa.</translation>
    </message>
    <message>
        <source>SM clock</source>
        <translation>Clock SM</translation>
    </message>
    <message>
        <source>The streaming multiprocessors&apos; clock: lower than usual means throttling.</source>
        <translation>O clock dos multiprocessadores: abaixo do normal, a GPU está limitada.</translation>
    </message>
    <message>
        <source>Throttling</source>
        <translation>Limitação</translation>
    </message>
    <message>
        <source>Why the GPU holds its clocks down, as the driver says it (power cap, heat...).</source>
        <translation>Por que a GPU reduz seus clocks, segundo o driver (limite de potência, calor…).</translation>
    </message>
    <message>
        <source>GPU %</source>
        <translation>GPU %</translation>
    </message>
    <message>
        <source>GPU memory (MiB)</source>
        <translation>Memória da GPU (MiB)</translation>
    </message>
    <message>
        <source>%1 over the run&apos;s sessions, a sample a second</source>
        <translation>%1 ao longo das sessões do treino, uma amostra por segundo</translation>
    </message>
    <message>
        <source>GPU: %1</source>
        <translation>GPU: %1</translation>
    </message>
    <message>
        <source>No samples yet: telemetry is taken while a run trains.</source>
        <translation>Ainda sem amostras: a telemetria é coletada enquanto um treino roda.</translation>
    </message>
    <message>
        <source>No GPU readings: the run trains on the CPU, or this machine has no NVIDIA driver.</source>
        <translation>Sem leituras da GPU: o treino roda na CPU, ou esta máquina não tem driver NVIDIA.</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 de %2</translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation>%1 °C</translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation>%1 W</translation>
    </message>
    <message>
        <source>%1 MHz</source>
        <translation>%1 MHz</translation>
    </message>
    <message>
        <source>none</source>
        <translation>nenhuma</translation>
    </message>
</context>
<context>
    <name>RemedyWords</name>
    <message>
        <source>The runs of this home are in the Runs list.</source>
        <translation>As execuções desta pasta estão na lista Execuções.</translation>
    </message>
    <message>
        <source>Select run '%1' in the Runs list and press Resume, or pick another name.</source>
        <translation>Selecione a execução '%1' na lista Execuções e clique em Retomar, ou escolha outro nome.</translation>
    </message>
    <message>
        <source>Choose a checkpoint of run '%1' in the Checkpoints table.</source>
        <translation>Escolha um checkpoint da execução '%1' na tabela Checkpoints.</translation>
    </message>
    <message>
        <source>Put the model file of run '%1' back where the run recorded it.</source>
        <translation>Coloque o arquivo do modelo da execução '%1' de volta onde a execução o registrou.</translation>
    </message>
    <message>
        <source>Put the model file of run '%1' back where the run recorded it; training can follow a moved file, export cannot.</source>
        <translation>Coloque o arquivo do modelo da execução '%1' de volta onde a execução o registrou; o treinamento pode seguir um arquivo movido, a exportação não.</translation>
    </message>
    <message>
        <source>Put the dataset file of run '%1' back where the run recorded it.</source>
        <translation>Coloque o arquivo do conjunto de dados da execução '%1' de volta onde a execução o registrou.</translation>
    </message>
    <message>
        <source>If the dataset folder of run '%1' moved, press Resume and choose the folder it moved to.</source>
        <translation>Se a pasta do conjunto de dados da execução '%1' foi movida, clique em Retomar e escolha a pasta para onde ela foi.</translation>
    </message>
    <message>
        <source>Leave the model file empty: the run's built-in model goes with it.</source>
        <translation>Deixe o arquivo do modelo vazio: o modelo embutido da execução vai com ela.</translation>
    </message>
    <message>
        <source>Leave the dataset as it is: the run's built-in dataset goes with it.</source>
        <translation>Deixe o conjunto de dados como está: o conjunto embutido da execução vai com ela.</translation>
    </message>
    <message>
        <source>Choose cpu or auto as the Device in the New run dialog.</source>
        <translation>Escolha cpu ou auto como Dispositivo na janela Nova execução.</translation>
    </message>
    <message>
        <source>Choose the last good checkpoint of run '%1' in the Checkpoints table and roll back to it.</source>
        <translation>Escolha o último checkpoint bom da execução '%1' na tabela Checkpoints e reverta para ele.</translation>
    </message>
    <message>
        <source>Roll back to checkpoint #%1 (%2), the newest one before it.</source>
        <translation>Reverta para o checkpoint nº %1 (%2), o mais recente antes dele.</translation>
    </message>
    <message>
        <source>Roll back to the start of the run, the newest point before it.</source>
        <translation>Reverta para o início da execução, o ponto mais recente antes dele.</translation>
    </message>
    <message>
        <source>Name both the epoch and the step to resume after.</source>
        <translation>Informe a época e o passo após os quais retomar.</translation>
    </message>
    <message>
        <source>Select two or more runs to compare.</source>
        <translation>Selecione duas ou mais execuções para comparar.</translation>
    </message>
    <message>
        <source>Pull run '%1' into another home, or resume it here.</source>
        <translation>Traga a execução '%1' para outra pasta, ou retome-a aqui.</translation>
    </message>
    <message>
        <source>Resume '%1'</source>
        <translation>Retomar '%1'</translation>
    </message>
    <message>
        <source>Show its checkpoints</source>
        <translation>Ver seus checkpoints</translation>
    </message>
    <message>
        <source>Train on the CPU</source>
        <translation>Treinar na CPU</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::SessionOutcomeWords</name>
    <message>
        <source>epoch %1, step %2</source>
        <translation>época %1, passo %2</translation>
    </message>
    <message>
        <source>the loss became NaN at %1</source>
        <translation>a perda virou NaN em %1</translation>
    </message>
    <message>
        <source>the loss became infinite at %1</source>
        <translation>a perda ficou infinita em %1</translation>
    </message>
    <message>
        <source>the gradient of %1 became NaN or infinite at %2</source>
        <translation>o gradiente de %1 virou NaN ou infinito em %2</translation>
    </message>
    <message>
        <source>%1. No checkpoint was saved before it: use “New run…” with a learning rate smaller than %2.</source>
        <translation>%1. Nenhum checkpoint foi salvo antes disso: use “Nova execução…” com uma taxa de aprendizado menor que %2.</translation>
    </message>
    <message>
        <source>the last good checkpoint is #%1 at %2</source>
        <translation>o último checkpoint bom é o nº %1, em %2</translation>
    </message>
    <message>
        <source>%1; %2. A plain resume would diverge again: use “Roll back to the last good checkpoint…” with a learning rate smaller than %3.</source>
        <translation>%1; %2. Uma simples retomada divergiria de novo: use “Reverter para o último checkpoint bom…” com uma taxa de aprendizado menor que %3.</translation>
    </message>
    <message>
        <source>%1; %2. A plain resume would diverge again: use “New run…” with a learning rate smaller than %3.</source>
        <translation>%1; %2. Uma simples retomada divergiria de novo: use “Nova execução…” com uma taxa de aprendizado menor que %3.</translation>
    </message>
    <message>
        <source>Stopped at %1, which a checkpoint already holds.</source>
        <translation>Parado em %1, que um checkpoint já contém.</translation>
    </message>
    <message>
        <source>Emergency checkpoint at %1 written in %2 ms of the %3 s grace period; stopped.</source>
        <translation>Checkpoint de emergência em %1 gravado em %2 ms dos %3 s do prazo de tolerância; parado.</translation>
    </message>
    <message>
        <source>Too late: a real instance would have been gone.</source>
        <translation>Tarde demais: uma instância real já teria sido retomada pelo provedor.</translation>
    </message>
    <message>
        <source>Stopped at %1, but the emergency checkpoint could not be written.</source>
        <translation>Parado em %1, mas o checkpoint de emergência não pôde ser gravado.</translation>
    </message>
    <message>
        <source>Stopped at %1; worker 0 writes the job&apos;s emergency checkpoint.</source>
        <translation>Parado em %1; o worker 0 grava o checkpoint de emergência do job.</translation>
    </message>
    <message>
        <source>after %1 (global step %2); nothing beyond the regular checkpoints was saved</source>
        <translation>depois de %1 (passo global %2); nada além dos checkpoints regulares foi salvo</translation>
    </message>
    <message>
        <source>during the validation after %1; the epoch&apos;s validation was not recorded</source>
        <translation>durante a validação depois de %1; a validação da época não foi registrada</translation>
    </message>
    <message>
        <source>worker %1 was lost at %2</source>
        <translation>o worker %1 foi perdido em %2</translation>
    </message>
    <message>
        <source>a worker was lost at %1</source>
        <translation>um worker foi perdido em %1</translation>
    </message>
    <message>
        <source>%1 steps, validation loss %2, accuracy %3</source>
        <translation>%1 passos, perda de validação %2, acurácia %3</translation>
    </message>
    <message>
        <source>run “%1” already finished at global step %2; nothing to resume (to roll back, select an earlier checkpoint in the Checkpoints table and use “Resume from here”)</source>
        <translation>a execução “%1” já terminou no passo global %2; nada a retomar (para reverter, selecione um checkpoint anterior na tabela Checkpoints e use “Retomar daqui”)</translation>
    </message>
    <message>
        <source>by request at %1 (global step %2)</source>
        <translation>a pedido, em %1 (passo global %2)</translation>
    </message>
    <message>
        <source>checkpoints could not be written; gave up after retries</source>
        <translation>os checkpoints não puderam ser gravados; desistiu após novas tentativas</translation>
    </message>
    <message>
        <source>checkpoints cannot be committed: %1</source>
        <translation>os checkpoints não podem ser confirmados: %1</translation>
    </message>
</context>
</TS>
